package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/recall-mem/recall"
)

// create makes the database file when it does not exist. The new store is
// built complete (journal, schema) under a temporary name and linked into
// place, so no recall process ever leaves a recall.db that is empty, even
// for a moment. A zero-byte recall.db is therefore not recall's own: it is
// refused, never initialised as a new store, since it may be a store whose
// data was lost (a truncated copy, a full disk) that needs restoring.
func (db *DB) create() error {
	fi, err := os.Stat(db.Path)
	switch {
	case err == nil && fi.Size() == 0:
		return recall.Errorf(recall.ECONFLICT, "%s is an empty file (0 bytes), not a recall store: it may be a store that lost its data, so recall leaves it alone. Move the file aside, then restore the store from a backup (`recall restore-backup FILE`) or run `recall init` to start an empty one.", db.Path)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("sqlite: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(db.Path), "."+filepath.Base(db.Path)+".new-*")
	if err != nil {
		return fmt.Errorf("sqlite: create file: %w", err)
	}
	tmp := f.Name()
	f.Close()
	defer removeDB(tmp)
	fresh := &DB{Path: tmp, Now: db.Now}
	if err := fresh.openWriter(); err != nil {
		return err
	}
	if err := fresh.write.Close(); err != nil { // checkpoints the WAL into the file
		return fmt.Errorf("sqlite: create file: %w", err)
	}
	// Link, unlike rename, never replaces: when another process created
	// the store meanwhile, its store is kept and this one is dropped.
	if err := os.Link(tmp, db.Path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("sqlite: create file: %w", err)
	}
	return nil
}

// removeDB removes a database file and the files SQLite keeps beside it.
func removeDB(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(path + suffix)
	}
}
