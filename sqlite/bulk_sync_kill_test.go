package sqlite

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// bulkKillBatch is the batch the killed writer imports: a bulk one.
const bulkKillBatch = bulkMinRows + 44

// TestImportMemories_BulkKilledMidway: a process importing bulk batches
// (synced commits, rare checkpoints: see setBulkSync) is killed with
// SIGKILL once its WAL holds more than SQLite's 1,000 pages that were not
// checkpointed, at whatever point it has reached. The store it leaves
// opens, passes SQLite's and FTS5's integrity checks, and holds every
// batch the process reported committed and nothing of the one it was in.
func TestImportMemories_BulkKilledMidway(t *testing.T) {
	if path := os.Getenv("RECALL_BULK_KILL_STORE"); path != "" {
		bulkKillWriter(t, path)
		return
	}
	if testing.Short() {
		t.Skip("starts a writer process")
	}
	path := filepath.Join(t.TempDir(), "recall.db")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestImportMemories_BulkKilledMidway$")
	cmd.Env = append(os.Environ(), "RECALL_BULK_KILL_STORE="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	committed, long := 0, false
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		n, ok := strings.CutPrefix(lines.Text(), "committed ")
		if !ok {
			continue
		}
		if committed, err = strconv.Atoi(n); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(path + "-wal"); err == nil && st.Size() > 1200*(pageSize+24) {
			long = true // past the checkpoint a NORMAL writer would have run
			break
		}
	}
	if !long {
		t.Fatalf("the writer's WAL never passed 1,200 pages (%d batches committed; %v): it was checkpointed", committed, lines.Err())
	}
	// Somewhere in the next batch, its commit or its checkpoint.
	time.Sleep(time.Duration(time.Now().UnixNano()%40) * time.Millisecond)
	if err := cmd.Process.Kill(); err != nil { // SIGKILL, wherever the writer is
		t.Fatal(err)
	}
	_ = cmd.Wait()

	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM memories`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n%bulkKillBatch != 0 || n/bulkKillBatch < committed {
		t.Fatalf("%d memories after the kill: want whole batches of %d, at least the %d reported committed", n, bulkKillBatch, committed)
	}
	var versions, fts int
	if err := db.read.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM memory_versions), (SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'killed')`).Scan(&versions, &fts); err != nil {
		t.Fatal(err)
	}
	if versions != n || fts != n {
		t.Fatalf("%d memories, %d versions, %d found by full text: want them equal", n, versions, fts)
	}
	t.Logf("killed after %d batches reported committed; %d memories", committed, n)
}

// bulkKillWriter imports bulk batches into the store at path until it is
// killed, reporting each batch once committed.
func bulkKillWriter(t *testing.T, path string) {
	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	s := NewMemoryService(db)
	filler := strings.Repeat("a writer to be killed while it imports ", 40)
	deadline := time.Now().Add(2 * time.Minute)
	for k := 1; time.Now().Before(deadline); k++ {
		ms := make([]*recall.Memory, bulkKillBatch)
		for j := range ms {
			ms[j] = &recall.Memory{Title: fmt.Sprintf("batch %d memory %d", k, j), Content: fmt.Sprintf("%s %d %d", filler, k, j), Tags: []string{fmt.Sprint("b", k%7)}}
		}
		if _, err := s.ImportMemories(context.Background(), ms); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("committed %d\n", k)
	}
	t.Fatal("not killed in time")
}
