package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/recall-mem/recall"
)

// Opening a store that is current connects no writer: a reader checks
// the journal mode and the migrations, and the writer connects on the
// first write. A store that is not current (a migration missing, another
// journal mode) is set up on the writer as before.
func TestOpen_CurrentStoreConnectsNoWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	first := NewDB(path)
	if err := first.Open(); err != nil {
		t.Fatal(err)
	}
	if _, err := NewMemoryService(first).PutMemory(ctx, &recall.Memory{Content: "kept across opens"}); err != nil {
		t.Fatal(err)
	}
	first.Close()

	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := db.write.Stats().OpenConnections; n != 0 {
		t.Fatalf("opening a current store connected %d writers", n)
	}
	s := NewMemoryService(db)
	if got, _, err := s.FindMemories(ctx, recall.MemoryFilter{Limit: 5}); err != nil || len(got) != 1 {
		t.Fatalf("read %d memories (%v), want 1", len(got), err)
	}
	if n := db.write.Stats().OpenConnections; n != 0 {
		t.Fatalf("a read connected %d writers", n)
	}
	if _, err := s.PutMemory(ctx, &recall.Memory{Content: "a write connects the writer"}); err != nil {
		t.Fatal(err)
	}
	if n := db.write.Stats().OpenConnections; n != 1 {
		t.Fatalf("after a write %d writers are open, want 1", n)
	}
	var fk int
	if err := db.write.QueryRow(`PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("the writer connected later lacks its settings: foreign_keys %d (%v)", fk, err)
	}

	// A caller about to write has the writer set up at once, and no
	// reader connected for the check.
	w := NewDB(path)
	w.ForWrite = true
	if err := w.Open(); err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if nw, nr := w.write.Stats().OpenConnections, w.read.Stats().OpenConnections; nw != 1 || nr != 0 {
		t.Fatalf("opened for a write: %d writers and %d readers connected, want 1 and 0", nw, nr)
	}
}

func TestOpen_StoreNotInWALIsSetUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recall.db")
	first := NewDB(path)
	if err := first.Open(); err != nil {
		t.Fatal(err)
	}
	first.Close()
	raw, err := sql.Open("sqlite", fileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := raw.QueryRow(`PRAGMA journal_mode = DELETE`).Scan(&mode); err != nil || mode != "delete" {
		t.Fatalf("journal mode %q (%v)", mode, err)
	}
	raw.Close()

	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	if n := db.write.Stats().OpenConnections; n != 1 {
		t.Fatalf("a store in rollback mode was not set up on the writer (%d connections)", n)
	}
	if err := db.write.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q after open (%v), want wal", mode, err)
	}
	db.Close()
	again := NewDB(path)
	if err := again.Open(); err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if n := again.write.Stats().OpenConnections; n != 0 {
		t.Fatalf("the store set up is not current for the next open (%d writers)", n)
	}
}

// A backup that is a plain copy of a store in WAL mode, current, opens
// through the reader's check and still leaves WAL mode after its check
// (which the reader the check left idle would refuse): restoring it works.
func TestRestore_FromACopyInWALMode(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := NewDB(filepath.Join(dir, "src", "recall.db"))
	if err := src.Open(); err != nil {
		t.Fatal(err)
	}
	if _, err := NewMemoryService(src).PutMemory(ctx, &recall.Memory{Content: "copied by hand"}); err != nil {
		t.Fatal(err)
	}
	if _, err := src.write.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(dir, "copy.db")
	b, err := os.ReadFile(src.Path)
	if err != nil {
		t.Fatal(err)
	}
	src.Close()
	if err := os.WriteFile(copyPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	dst := NewDB(filepath.Join(dir, "dst", "recall.db"))
	if err := dst.Open(); err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	got, err := dst.Restore(ctx, copyPath, false)
	if err != nil || got.Memories != 1 {
		t.Fatalf("restored %+v (%v), want 1 memory", got, err)
	}
}

// A writer set up on a current store asks whether it is current and does
// no more: the journal pragmas and migrate's CREATE TABLE IF NOT EXISTS
// took SQLite's write lock, so a hook opening the store while another
// process wrote (the session upkeep) waited for that transaction before
// doing anything. Opened for writing now, the store opens while another
// connection holds the write lock (on main the open failed after the
// busy timeout: "database is locked").
func TestOpen_ForWriteOnACurrentStoreTakesNoWriteLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recall.db")
	first := NewDB(path)
	if err := first.Open(); err != nil {
		t.Fatal(err)
	}
	first.Close()

	other, err := sql.Open("sqlite", fileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	lock, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(context.Background(), `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	defer lock.ExecContext(context.Background(), `ROLLBACK`)

	db := NewDB(path)
	db.ForWrite = true
	if err := db.Open(); err != nil {
		t.Fatalf("opening a current store for writing while another connection writes: %v", err)
	}
	defer db.Close()
	if n := db.write.Stats().OpenConnections; n != 1 {
		t.Fatalf("%d writers connected, want 1", n)
	}
}
