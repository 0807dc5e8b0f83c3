package postgres_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
)

// writerEnv, when set, makes the test binary a writer process for
// TestKilledWriters instead of running tests: it holds the database URL.
const writerEnv = "RECALL_PG_WRITER_URL"

// keys are the keys every writer puts new versions of, so that writers
// contend for them.
var keys = []string{"k0", "k1", "k2", "k3", "k4"}

// runWriter puts new versions of the shared keys and prints "ack KEY
// CONTENT" after each put the store acknowledged, until it has done 60 or
// is killed.
func runWriter(dbURL, name string) int {
	ctx := context.Background()
	db, err := postgres.Open(ctx, dbURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s := postgres.NewMemoryService(db)
	for j := range 60 {
		key, content := keys[j%len(keys)], fmt.Sprintf("%s-%d", name, j)
		if _, err := s.PutMemory(ctx, &recall.Memory{Key: key, Content: content}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Printf("ack %s %s\n", key, content)
	}
	return 0
}

// TestKilledWriters runs 8 writer processes through one database and
// kills half of them with SIGKILL mid-write: every acknowledged write is
// in the history, each key stays one memory, and versions have no gaps.
func TestKilledWriters(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	db := mustOpen(t, dbURL, "") // migrate once before the writers race
	var mu sync.Mutex
	acked := map[string][]string{}
	var wg sync.WaitGroup
	for i := range 8 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), writerEnv+"="+dbURL, "RECALL_PG_WRITER_NAME="+fmt.Sprintf("w%d", i))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sc := bufio.NewScanner(out)
			n := 0
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				if len(f) == 3 && f[0] == "ack" {
					mu.Lock()
					acked[f[1]] = append(acked[f[1]], f[2])
					mu.Unlock()
				}
				// Half of the writers die without warning after a few
				// writes, most likely in the middle of the next one.
				if n++; i%2 == 0 && n == 5+i {
					cmd.Process.Kill()
				}
			}
			err := cmd.Wait()
			if i%2 == 1 && err != nil {
				t.Errorf("writer %d: %v\n%s", i, err, stderr.String())
			}
		}(i)
	}
	wg.Wait()

	s := postgres.NewMemoryService(db)
	ms, total, err := s.FindMemories(ctx, recall.MemoryFilter{})
	if err != nil || total != len(keys) {
		t.Fatalf("%d memories (%v), want one per key: %d", total, err, len(keys))
	}
	for _, m := range ms {
		vs, err := s.MemoryVersions(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		var contents []string
		for i, v := range vs {
			if v.Version != i+1 {
				t.Fatalf("key %s: version %d at position %d", m.Key, v.Version, i+1)
			}
			contents = append(contents, v.Memory.Content)
		}
		if m.Version != len(vs) {
			t.Fatalf("key %s at version %d with %d versions stored", m.Key, m.Version, len(vs))
		}
		for _, c := range acked[m.Key] {
			if !slices.Contains(contents, c) {
				t.Fatalf("key %s: acknowledged write %q is lost", m.Key, c)
			}
		}
	}
	n := 0
	for _, cs := range acked {
		n += len(cs)
	}
	// The survivors alone acknowledge 4 × 60 writes.
	if n < 4*60 {
		t.Fatalf("%d acknowledged writes, want at least %d", n, 4*60)
	}
	t.Logf("%d acknowledged writes checked", n)
}
