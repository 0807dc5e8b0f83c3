package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/recall-mem/recall"
)

// migrateSide is one store of a migration.
type migrateSide struct {
	name   string // for people: a directory, a file, or a URL without its password
	path   string // what the backend opens
	store  recall.Store
	copier recall.StoreCopier
}

// openMigration opens the open store (created if it is the target) and
// the other one, and returns them as source and target; closeOther
// closes the other one.
func (e *Engine) openMigration(ctx context.Context, o MigrateOptions) (src, dst *migrateSide, closeOther func(), err error) {
	if (o.To == "") == (o.From == "") {
		return nil, nil, nil, recall.Errorf(recall.EINVALID, "Name one other store: --to DIR|URL copies this store there, --from DIR|URL copies that store here.")
	}
	into := o.From != ""
	arg := o.To
	if into {
		arg = o.From
	}
	other, created, err := otherStore(arg, into)
	if err != nil {
		return nil, nil, nil, err
	}
	if into {
		err = e.OpenForWrite(ctx)
	} else {
		err = e.Open(ctx)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	here := &migrateSide{name: e.Location.Store(), path: e.Location.DBPath(), store: e.Store}
	if sameStore(here.path, other.path) {
		return nil, nil, nil, recall.Errorf(recall.EINVALID, "The source and the target are the same store (%s): name another one with --to or --from.", here.name)
	}
	if other.store, err = e.parts.Backend.OpenStore(other.path, recall.StoreOptions{}); err != nil {
		return nil, nil, nil, err
	}
	if created {
		if err := WriteStoreGitignore(filepath.Dir(other.path)); err != nil {
			other.store.Close()
			return nil, nil, nil, err
		}
	}
	here.copier, other.copier = here.store.Copier(), other.store.Copier()
	closeOther = func() { other.store.Close() }
	if into {
		return other, here, closeOther, nil
	}
	return here, other, closeOther, nil
}

// otherStore resolves --to or --from: a server URL, a store directory
// (its recall.db), or a database file. A source must exist; a target
// directory is created (created is then true).
func otherStore(arg string, source bool) (side *migrateSide, created bool, err error) {
	if IsStoreURL(arg) {
		return &migrateSide{name: recall.RedactURL(arg), path: arg}, false, nil
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil, false, recall.Errorf(recall.EINVALID, "Invalid store path %q: %v.", arg, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case err == nil && !fi.IsDir():
		return &migrateSide{name: abs, path: abs}, false, nil
	case err == nil:
		db := filepath.Join(abs, DBFile)
		if _, err := os.Stat(db); err != nil && source {
			return nil, false, recall.Errorf(recall.ENOTFOUND, "No store in %s (no %s): name a store directory, a database file or a postgres:// URL.", abs, DBFile)
		}
		return &migrateSide{name: abs, path: db}, false, nil
	case errors.Is(err, fs.ErrNotExist) && !source:
		return &migrateSide{name: abs, path: filepath.Join(abs, DBFile)}, true, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, recall.Errorf(recall.ENOTFOUND, "No store at %s: name a store directory, a database file or a postgres:// URL.", abs)
	}
	return nil, false, recall.Errorf(recall.EUNAVAILABLE, "Cannot read %s: %v.", abs, errors.Unwrap(err))
}

// sameStore reports whether two backend paths name one store: the same
// file (through any links), or the same URL whatever its password.
func sameStore(a, b string) bool {
	if IsStoreURL(a) || IsStoreURL(b) {
		return recall.RedactURL(a) == recall.RedactURL(b)
	}
	ra, errA := filepath.EvalSymlinks(filepath.Dir(a))
	rb, errB := filepath.EvalSymlinks(filepath.Dir(b))
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return filepath.Join(ra, filepath.Base(a)) == filepath.Join(rb, filepath.Base(b))
}
