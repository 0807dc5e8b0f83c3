package sqlite_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// helperWrites is how many observations the writer process records, one
// transaction each, as a hook does (see writerProcess).
const helperWrites = 300

// TestForgetService_Purge_ConcurrentWriter purges, with secure delete,
// VACUUM and a truncating checkpoint, while another process writes: the
// writer must see no error and lose no write.
func TestForgetService_Purge_ConcurrentWriter(t *testing.T) {
	ctx := context.Background()
	db := sqlite.NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var doomed []*recall.Observation
	for i := range 2000 {
		doomed = append(doomed, &recall.Observation{Type: "doomed", Session: fmt.Sprint("d", i%10), Content: fmt.Sprintf("secret number %d to forget", i)})
	}
	seedObservations(t, db, doomed...)

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "RECALL_TEST_WRITER="+db.Path, "RECALL_TEST_WRITER_NAME=writer", fmt.Sprintf("RECALL_TEST_WRITER_N=%d", helperWrites))
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	svc := sqlite.NewForgetService(db)
	purged := 0
	for s := 0; ; s++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("writer failed: %v\n%s", err, out.String())
			}
			if purged == 0 {
				t.Log("the writer finished before any purge: the run proves little")
			}
			if n := countObservations(t, db, recall.ObservationFilter{Session: strp("writer")}); n != helperWrites {
				t.Fatalf("%d of %d concurrent writes survive", n, helperWrites)
			}
			if err := db.Check(ctx); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d purges ran while the writer wrote %d observations", purged, helperWrites)
			return
		default:
		}
		if s < 10 {
			if _, err := svc.Purge(ctx, recall.PurgeCriteria{Session: fmt.Sprint("d", s)}); err != nil {
				t.Fatalf("purge %d: %v", s, err)
			}
			purged++
		} else if _, err := svc.Sweep(ctx, recall.RetentionPolicy{Enabled: true, Days: map[string]int{recall.ObsCommand: 1}}, day(0), true); err != nil {
			t.Fatalf("dry-run sweep: %v", err)
		}
	}
}

// lockedBuffer collects a child process's output from two pipes at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
