package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// A store's file is the path it is given, whatever characters the path
// holds: SQLite reads a "file:" URI, where '?', '#' and '%' mean something.
// Before, stores in "notes#1" and "notes#2" both opened "notes".
func TestOpen_PathCharacters(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	for _, dir := range []string{"notes#1", "notes#2", "what?", "100%25", "50%"} {
		path := filepath.Join(root, dir, "recall.db")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		db := sqlite.NewDB(path)
		if err := db.Open(); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if _, err := sqlite.NewMemoryService(db).PutMemory(ctx, &recall.Memory{Content: "kept in " + dir}); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		db.Close()
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 5 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("files beside the stores' directories: %v", names)
	}
	for _, dir := range []string{"notes#1", "notes#2", "what?", "100%25", "50%"} {
		db := sqlite.NewDB(filepath.Join(root, dir, "recall.db"))
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		ms, n, err := sqlite.NewMemoryService(db).FindMemories(ctx, recall.MemoryFilter{})
		db.Close()
		if err != nil || n != 1 || ms[0].Content != "kept in "+dir {
			t.Errorf("%s holds %d memories (%v), want its own one", dir, n, err)
		}
	}
}
