package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// A process whose writes wait for others' (DB.BeforeWrite: the session
// upkeep, which lets hooks go first) would otherwise hold them up with its
// checkpoints: SQLite runs the automatic checkpoint inside the commit that
// takes the WAL past wal_autocheckpoint pages, so BeforeWrite's done came
// only after it, 18–20 ms every twentieth transaction of a rollup backlog
// against 4–6 ms for the others. Such a process turns the automatic
// checkpoint off on its writer and checkpoints every gatedCheckpointEvery
// transactions after done, where the others' writes go on beside it (a
// passive checkpoint takes no write lock). The WAL stays bounded as
// before: an upkeep transaction adds some tens of pages.
const gatedCheckpointEvery = 16

// gatedBegin runs BeforeWrite and begins the write transaction, and
// returns what ends the transaction's turn. Its turn must not wait for
// another process's lock: the hooks wait for the end of that turn, and
// SQLite's lock may be held by a writer that does not go through the gate
// (a server, an import), so the hooks would queue behind it and the
// upkeep's transaction both. The transaction begins without waiting
// (busy_timeout 0); when another holds the lock the turn is given back
// and taken again after a pause, from BeforeWrite on.
func (db *DB) gatedBegin(ctx context.Context) (*Tx, func(), error) {
	g := &db.gated
	g.mu.Lock()
	if !g.autoOff {
		if _, err := db.write.ExecContext(ctx, `PRAGMA wal_autocheckpoint = 0`); err != nil {
			g.mu.Unlock()
			return nil, nil, err
		}
		g.autoOff = true
	}
	g.mu.Unlock()
	pause := gatedBusyPause
	for {
		release, err := db.BeforeWrite(ctx)
		if err != nil {
			return nil, nil, err
		}
		if release == nil { // a BeforeWrite with nothing to let go of
			release = func() {}
		}
		tx, err := db.beginNow(ctx)
		if err == nil {
			return tx, func() { release(); db.afterGatedCommit(ctx) }, nil
		}
		release()
		if !isBusy(err) {
			return nil, nil, fmt.Errorf("begin: %w", err)
		}
		if !sleepCtx(ctx, pause) {
			return nil, nil, fmt.Errorf("begin: %w", err)
		}
		pause = min(pause*2, gatedBusyPauseMax)
	}
}

// The pauses of gatedBegin while another process holds the write lock:
// SQLite's own busy handler sleeps alike (1 ms growing to 25 ms, then
// 100 ms steps).
const (
	gatedBusyPause    = 2 * time.Millisecond
	gatedBusyPauseMax = 50 * time.Millisecond
)

// beginNow begins an immediate transaction on the writer or fails at once
// with SQLITE_BUSY. The writer holds one connection, so the busy timeout
// set around BEGIN is the one it runs under; it is restored for the
// transaction's statements and for every other write.
func (db *DB) beginNow(ctx context.Context) (*Tx, error) {
	db.hot.prepareWanted(ctx, db.write)
	if _, err := db.write.ExecContext(ctx, `PRAGMA busy_timeout = 0`); err != nil {
		return nil, err
	}
	restore := fmt.Sprintf(`PRAGMA busy_timeout = %d`, busyTimeout.Milliseconds())
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		// The connection is back in the pool: restored there.
		_, _ = db.write.ExecContext(context.WithoutCancel(ctx), restore)
		return nil, err
	}
	// The transaction holds the connection: restored through it. If that
	// fails (ctx ended after BEGIN: database/sql rolls back and keeps the
	// connection), it is restored in the pool, as above: else every later
	// write would run without a busy timeout.
	if _, err := tx.ExecContext(ctx, restore); err != nil {
		_ = tx.Rollback()
		_, _ = db.write.ExecContext(context.WithoutCancel(ctx), restore)
		return nil, err
	}
	return &Tx{Tx: tx, db: db, now: db.now()}, nil
}

// afterGatedCommit checkpoints every gatedCheckpointEvery transactions,
// after the transaction's turn.
func (db *DB) afterGatedCommit(ctx context.Context) {
	g := &db.gated
	g.mu.Lock()
	g.commits++
	due := g.commits%gatedCheckpointEvery == 0
	g.mu.Unlock()
	if due {
		// Also after the caller's deadline (a paced slice's): it
		// is outside the transaction and its turn.
		checkpointPassive(context.WithoutCancel(ctx), db.write)
	}
}

// gatedWrites is the state of gate.
type gatedWrites struct {
	mu      sync.Mutex
	autoOff bool // the writer's automatic checkpoint is off
	commits int  // transactions through gate
}

// checkpointPassive checkpoints what it can without waiting; one that
// does not happen is the next one's, or the next close's.
func checkpointPassive(ctx context.Context, c *sql.DB) {
	var busy, logFrames, done int
	_ = c.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logFrames, &done)
}
