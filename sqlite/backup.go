package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	sqlite3 "modernc.org/sqlite"
)

// BackupCounts are the rows of a store by kind, for a backup's report and
// to compare a restored store with its backup.
type BackupCounts = recall.BackupCounts

// Counts counts the rows of each kind.
func (db *DB) Counts(ctx context.Context) (BackupCounts, error) {
	return countRows(ctx, db.read)
}

func countRows(ctx context.Context, q *sql.DB) (BackupCounts, error) {
	var c BackupCounts
	err := q.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM memories), (SELECT COUNT(*) FROM memory_versions),
		(SELECT COUNT(*) FROM observations), (SELECT COUNT(*) FROM sessions),
		(SELECT COUNT(*) FROM memory_rollups), (SELECT COUNT(*) FROM memory_vectors)`).
		Scan(&c.Memories, &c.Versions, &c.Observations, &c.Sessions, &c.Rollups, &c.Vectors)
	if err != nil {
		return c, fmt.Errorf("count rows: %w", err)
	}
	return c, nil
}

// Backup writes a copy of the whole store (memories of every status with
// their history, observations, sessions, rollups, vectors, indexes) to
// path with VACUUM INTO: one read transaction, so the copy is a consistent
// snapshot while writers go on. The copy is built beside path, checked,
// synced and renamed over it, so path is either the old file or a whole
// new backup. It returns what the backup holds.
func (db *DB) Backup(ctx context.Context, path string) (BackupCounts, error) {
	var counts BackupCounts
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return counts, recall.Errorf(recall.EINVALID, "Cannot write the backup beside %s: %v. Choose a directory you can write to.", path, errors.Unwrap(err))
	}
	tmp := f.Name()
	f.Close()
	defer removeDB(tmp)
	conn, err := sql.Open("sqlite", dsn(db.Path, commonPragmas(), ""))
	if err != nil {
		return counts, fmt.Errorf("backup: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, tmp); err != nil {
		return counts, fmt.Errorf("backup: %w", err)
	}
	if counts, err = checkCopy(ctx, tmp); err != nil {
		return counts, fmt.Errorf("backup: the copy failed its check: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		return counts, fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return counts, fmt.Errorf("backup: %w", err)
	}
	return counts, syncDir(filepath.Dir(path))
}

// checkCopy opens a standalone copy of a store (a backup), runs the
// integrity checks on it and counts its rows. Opening applies the
// migrations, so a backup from an older recall comes out current.
func checkCopy(ctx context.Context, path string) (BackupCounts, error) {
	c := NewDB(path)
	if err := c.Open(); err != nil {
		return BackupCounts{}, err
	}
	defer c.Close()
	if err := c.Check(ctx); err != nil {
		return BackupCounts{}, err
	}
	counts, err := countRows(ctx, c.write)
	if err != nil {
		return counts, err
	}
	// Leave a single file: fold the WAL back in and leave WAL mode, which
	// needs every other connection closed. Opening may have left a reader
	// idle (it checks from one whether the copy is current).
	c.read.SetMaxIdleConns(0)
	if _, err := c.write.ExecContext(ctx, `PRAGMA journal_mode = DELETE`); err != nil {
		return counts, err
	}
	return counts, nil
}

// Restore replaces everything in the store with the backup at path. The
// backup is copied and checked first (integrity, FTS indexes) and never
// changed. A store that holds data is only replaced with force. The
// content is swapped with SQLite's backup API in one write transaction,
// so other processes on the store see either the old store or the
// restored one, never a mix. It returns what the restored store holds.
func (db *DB) Restore(ctx context.Context, path string, force bool) (BackupCounts, error) {
	tmp, err := copyBackup(path, filepath.Dir(db.Path))
	if err != nil {
		return BackupCounts{}, err
	}
	defer removeDB(tmp)
	counts, err := checkCopy(ctx, tmp)
	if err != nil {
		why := strings.ReplaceAll(err.Error(), tmp, path)
		return counts, recall.Errorf(recall.EINVALID, "%s is not a sound recall backup (%s): nothing was changed. Try an older backup.", path, why)
	}
	cur, err := db.Counts(ctx)
	if err != nil {
		return counts, err
	}
	if !cur.Empty() && !force {
		return counts, recall.Errorf(recall.ECONFLICT, "The store at %s holds %d memories, %d observations and %d sessions, which a restore replaces: back it up first (`recall backup FILE`), then restore with --force.", filepath.Dir(db.Path), cur.Memories, cur.Observations, cur.Sessions)
	}
	if err := db.matchPageSize(ctx, tmp); err != nil {
		return counts, err
	}
	if err := db.restoreFrom(ctx, tmp); err != nil {
		return counts, err
	}
	// Vector indexes of other processes and the cache file belong to the
	// old content: a new epoch makes every reader rebuild.
	_ = os.Remove(db.vectorCachePath())
	if err := db.update(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE store_meta SET value = lower(hex(randomblob(8))) WHERE key = 'vector_epoch'`)
		return err
	}); err != nil {
		return counts, err
	}
	return counts, db.Check(ctx)
}

// matchPageSize rewrites the database at path (not in WAL mode) with the
// store's page size: SQLite's backup API cannot change the page size of a
// store in WAL mode, and stores made before 16 KiB pages use 4 KiB.
func (db *DB) matchPageSize(ctx context.Context, path string) error {
	var want, have int
	if err := db.write.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&want); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	c, err := sql.Open("sqlite", dsn(path, nil, ""))
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer c.Close()
	c.SetMaxOpenConns(1)
	if err := c.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&have); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if have == want {
		return nil
	}
	if _, err := c.ExecContext(ctx, fmt.Sprintf(`PRAGMA page_size = %d`, want)); err != nil {
		return fmt.Errorf("restore: page size: %w", err)
	}
	if _, err := c.ExecContext(ctx, `VACUUM`); err != nil {
		return fmt.Errorf("restore: page size: %w", err)
	}
	return nil
}

// restoreFrom copies every page of the database at src into the store in
// one transaction, retrying while another process holds the lock.
func (db *DB) restoreFrom(ctx context.Context, src string) error {
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer conn.Close()
	delay := 5 * time.Millisecond
	for {
		err = conn.Raw(func(dc any) error {
			r, ok := dc.(interface {
				NewRestore(string) (*sqlite3.Backup, error)
			})
			if !ok {
				return fmt.Errorf("the SQLite driver has no backup API")
			}
			b, err := r.NewRestore(fileURI(src))
			if err != nil {
				return err
			}
			_, stepErr := b.Step(-1)
			return errors.Join(stepErr, b.Finish())
		})
		if err == nil || !isBusy(err) {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("restore: %w", err)
		case <-time.After(delay):
		}
		delay = min(delay*2, 500*time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}

// copyBackup copies the backup at path into a new file in dir, so that
// checking (and migrating) it never touches the backup itself.
func copyBackup(path, dir string) (string, error) {
	in, err := os.Open(path)
	if err != nil {
		return "", recall.Errorf(recall.ENOTFOUND, "Cannot read the backup %s: %v.", path, errors.Unwrap(err))
	}
	defer in.Close()
	if fi, err := in.Stat(); err == nil && fi.Size() == 0 {
		return "", recall.Errorf(recall.EINVALID, "%s is empty (0 bytes), not a recall backup: nothing was changed. Try an older backup.", path)
	}
	out, err := os.CreateTemp(dir, ".restore-*.db")
	if err != nil {
		return "", fmt.Errorf("restore: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(out.Name())
		return "", fmt.Errorf("restore: %w", err)
	}
	return out.Name(), out.Close()
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	_ = d.Sync() // not supported everywhere (e.g. Windows); the rename stands
	return nil
}
