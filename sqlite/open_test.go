package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// TestOpen_EmptyFile: a zero-byte recall.db that this process did not
// create (a truncated store, a stray touch) is refused rather than
// silently initialised as a new, empty store, and stays as it was.
func TestOpen_EmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recall.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	db := sqlite.NewDB(path)
	err := db.Open()
	if err == nil {
		db.Close()
		t.Fatal("a zero-byte recall.db was opened as a store")
	}
	if recall.ErrorCode(err) != recall.ECONFLICT {
		t.Fatalf("err %v, want ECONFLICT", err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Fatalf("the empty file was changed: %v %v", fi, err)
	}
}

// TestOpen_NewStoreAtOnce: processes that create the same new store at
// once all open it; none finds it half made (empty) and refuses.
func TestOpen_NewStoreAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store", "recall.db")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			db := sqlite.NewDB(path)
			if errs[i] = db.Open(); errs[i] == nil {
				_, errs[i] = sqlite.NewMemoryService(db).PutMemory(context.Background(), &recall.Memory{Content: "from opener"})
				db.Close()
			}
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("opener %d: %v", i, err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*"))
	for _, f := range left {
		if b := filepath.Base(f); b != "recall.db" && b != "recall.db-wal" && b != "recall.db-shm" {
			t.Errorf("left behind: %s", b)
		}
	}
}
