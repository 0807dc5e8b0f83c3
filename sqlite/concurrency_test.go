package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// TestMain doubles as a writer process: when RECALL_TEST_WRITER names a
// database, the test binary writes memories into it and exits, so that
// TestConcurrentProcesses can run real separate processes;
// RECALL_TEST_VECTOR_WRITER does the same with vectors for
// TestVectorCache_Processes.
func TestMain(m *testing.M) {
	if path := os.Getenv("RECALL_TEST_VECTOR_WRITER"); path != "" {
		rounds, _ := strconv.Atoi(os.Getenv("RECALL_TEST_VECTOR_ROUNDS"))
		if err := vectorWriter(path, os.Getenv("RECALL_TEST_WRITER_NAME"), rounds); err != nil {
			fmt.Fprintln(os.Stderr, "vector writer:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if path := os.Getenv("RECALL_TEST_WRITER"); path != "" {
		os.Exit(writerProcess(path, os.Getenv("RECALL_TEST_WRITER_NAME"), os.Getenv("RECALL_TEST_WRITER_N")))
	}
	os.Exit(m.Run())
}

func writerProcess(path, name, count string) int {
	n, _ := strconv.Atoi(count)
	db := sqlite.NewDB(path)
	if err := db.Open(); err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 1
	}
	defer db.Close()
	mem, obs := sqlite.NewMemoryService(db), sqlite.NewObservationService(db)
	ctx := context.Background()
	for i := 0; i < n; i++ {
		if _, err := mem.PutMemory(ctx, &recall.Memory{Key: fmt.Sprintf("%s-%d", name, i), Content: "written by " + name}); err != nil {
			fmt.Fprintln(os.Stderr, "put:", err)
			return 1
		}
		if err := obs.RecordObservations(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: name, Content: "ls"}}); err != nil {
			fmt.Fprintln(os.Stderr, "observe:", err)
			return 1
		}
	}
	return 0
}

// TestConcurrentProcesses runs several processes and goroutines writing one
// store at once: none may fail with "database is locked" and no write may be
// lost.
func TestConcurrentProcesses(t *testing.T) {
	const procs, perProc, goroutines = 4, 60, 4
	path := filepath.Join(t.TempDir(), "recall.db")
	db := sqlite.NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mem := sqlite.NewMemoryService(db)

	var wg sync.WaitGroup
	errs := make(chan error, procs+goroutines)
	for p := 0; p < procs; p++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "RECALL_TEST_WRITER="+path,
			fmt.Sprintf("RECALL_TEST_WRITER_NAME=proc%d", p), fmt.Sprintf("RECALL_TEST_WRITER_N=%d", perProc))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("writer process: %v: %s", err, out)
			}
		}()
	}
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perProc; i++ {
				if _, err := mem.PutMemory(context.Background(), &recall.Memory{Key: fmt.Sprintf("g%d-%d", g, i), Content: "in-process"}); err != nil {
					errs <- err
					return
				}
				if _, _, err := mem.FindMemories(context.Background(), recall.MemoryFilter{Limit: 5}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	_, total, err := mem.FindMemories(context.Background(), recall.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (procs + goroutines) * perProc; total != want {
		t.Fatalf("memories = %d, want %d: writes were lost", total, want)
	}
	_, nobs, err := sqlite.NewObservationService(db).FindObservations(context.Background(), recall.ObservationFilter{})
	if err != nil || nobs != procs*perProc {
		t.Fatalf("observations = %d (%v), want %d", nobs, err, procs*perProc)
	}
	if err := db.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}
