package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// ftsRebuildAfter is seed 003's threshold: past this many deletions an FTS5
// index is rebuilt from its content table rather than merged.
const ftsRebuildAfter = 1000

// secureUpdate runs fn in a write transaction with secure_delete on, so
// SQLite overwrites every deleted cell and freed page with zeros. The
// writer pool holds one connection, so the pragma set inside the
// transaction is the one the deletes run under; it is restored afterwards
// so that ordinary writes stay fast.
func (db *DB) secureUpdate(ctx context.Context, fn func(tx *Tx) error) error {
	prev := -1
	defer func() {
		if prev >= 0 {
			_, _ = db.write.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA secure_delete = %d`, prev))
		}
	}()
	return db.update(ctx, func(tx *Tx) error {
		if err := tx.QueryRowContext(ctx, `PRAGMA secure_delete`).Scan(&prev); err != nil {
			return fmt.Errorf("secure_delete: %w", err)
		}
		var on int
		if err := tx.QueryRowContext(ctx, `PRAGMA secure_delete = ON`).Scan(&on); err != nil {
			return fmt.Errorf("secure_delete: %w", err)
		} else if on != 1 {
			return fmt.Errorf("secure_delete: the connection refused to turn it on")
		}
		return fn(tx)
	})
}

// compactFTS brings an FTS5 index to a state that holds no trace of the
// deleted rows. FTS5 records a deletion as a tombstone in a new segment and
// keeps the old tokens until segments merge, so a purge always merges
// ('optimize') or, past the threshold, rebuilds; a sweep only rebuilds past
// the threshold, since leftover tokens of expired noise are harmless.
func compactFTS(ctx context.Context, tx *Tx, table string, deleted int, always bool) (string, error) {
	cmd := ""
	switch {
	case deleted > ftsRebuildAfter:
		cmd = "rebuild"
	case always && deleted > 0:
		cmd = "optimize"
	default:
		return "", nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+`(`+table+`) VALUES (?)`, cmd); err != nil {
		return "", fmt.Errorf("%s %s: %w", table, cmd, err)
	}
	return cmd, nil
}

// incrementalVacuum returns every free page to the file system and says
// how many there were (the store uses auto_vacuum = INCREMENTAL).
func incrementalVacuum(ctx context.Context, tx *Tx) (int64, error) {
	var before, after int64
	if err := tx.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&before); err != nil {
		return 0, fmt.Errorf("freelist_count: %w", err)
	}
	if before == 0 {
		return 0, nil
	}
	if _, err := tx.ExecContext(ctx, `PRAGMA incremental_vacuum`); err != nil {
		return 0, fmt.Errorf("incremental_vacuum: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&after); err != nil {
		return 0, fmt.Errorf("freelist_count: %w", err)
	}
	return before - after, nil
}

// vacuum rewrites the database file without free space, so no byte of
// deleted content survives in it. It waits for other processes' write
// locks, retrying up to tries times, and reports whether it ran.
func (db *DB) vacuum(ctx context.Context, tries int) (bool, error) {
	for i := 0; ; i++ {
		_, err := db.write.ExecContext(ctx, `VACUUM`)
		if err == nil {
			return true, nil
		} else if !isBusy(err) {
			return false, fmt.Errorf("vacuum: %w", err)
		}
		if i+1 >= tries || !sleepCtx(ctx, 50*time.Millisecond) {
			return false, nil
		}
	}
}

// sleepCtx waits d or until ctx ends, and reports whether it waited.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// checkpointTruncate folds the WAL into the database and truncates it to
// zero bytes, so no copy of deleted pages survives in WAL frames. Another
// process reading or writing can keep it from completing; it is retried up
// to tries times, each waiting busy_timeout, and reports whether it
// succeeded.
func (db *DB) checkpointTruncate(ctx context.Context, tries int) (bool, error) {
	for i := 0; ; i++ {
		ok, err := checkpoint(ctx, db.write)
		if ok || err != nil || i+1 >= tries || !sleepCtx(ctx, 50*time.Millisecond) {
			return ok, err
		}
	}
}

// checkpointNow is checkpointTruncate for sweeps, which may run inside an
// agent's session start: one try that never waits for other processes.
// The connection is pinned so that no other statement of this process runs
// with the shortened busy timeout.
//
// A gated writer (the session upkeep) checkpoints in its turn, like its
// transactions: the checkpoint takes SQLite's write lock while it
// truncates the WAL, and a hook that met it there polled for it.
func (db *DB) checkpointNow(ctx context.Context) (bool, error) {
	if db.BeforeWrite != nil {
		release, err := db.BeforeWrite(ctx)
		if err != nil {
			return false, fmt.Errorf("wal_checkpoint: %w", err)
		}
		if release != nil {
			defer release()
		}
	}
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("wal_checkpoint: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = 0`); err != nil {
		return false, fmt.Errorf("wal_checkpoint: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA busy_timeout = %d`, busyTimeout.Milliseconds()))
	return checkpoint(ctx, conn)
}

func checkpoint(ctx context.Context, q querier) (bool, error) {
	var busy, logFrames, done int
	err := q.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done)
	if err != nil && !isBusy(err) {
		return false, fmt.Errorf("wal_checkpoint: %w", err)
	}
	return err == nil && busy == 0, nil
}

// audit records a purge or sweep: when, with which criteria, how many rows.
// Never content: criteria come from PurgeCriteria.Describe, which withholds
// search text.
func audit(ctx context.Context, tx *Tx, kind, criteria string, counts map[string]int) error {
	buf, err := json.Marshal(counts)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO forget_log (at, kind, criteria, counts) VALUES (?, ?, ?, ?)`,
		ms(tx.now), kind, criteria, string(buf)); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// dropEmptySessions deletes the sessions among ids that have no
// observations left and carry no summary or learned text of their own: the
// seed's orphan clean-up, which must not take a session's summary with its
// raw events.
func dropEmptySessions(ctx context.Context, tx *Tx, ids map[string]bool) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	list := make([]string, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	buf, _ := json.Marshal(list)
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id IN (SELECT value FROM json_each(?))
		AND summary = '' AND learned = ''
		AND NOT EXISTS (SELECT 1 FROM observations o WHERE o.session = sessions.id)`, string(buf))
	if err != nil {
		return 0, fmt.Errorf("drop empty sessions: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
