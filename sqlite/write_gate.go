package sqlite

import (
	"context"
	"database/sql"
	"sync"
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

// gate runs BeforeWrite and returns what ends the transaction's turn.
func (db *DB) gate(ctx context.Context) (func(), error) {
	g := &db.gated
	g.mu.Lock()
	if !g.autoOff {
		if _, err := db.write.ExecContext(ctx, `PRAGMA wal_autocheckpoint = 0`); err != nil {
			g.mu.Unlock()
			return nil, err
		}
		g.autoOff = true
	}
	g.mu.Unlock()
	done, err := db.BeforeWrite(ctx)
	if err != nil {
		return nil, err
	}
	if done == nil { // a BeforeWrite with nothing to let go of
		done = func() {}
	}
	return func() {
		done()
		g.mu.Lock()
		g.commits++
		due := g.commits%gatedCheckpointEvery == 0
		g.mu.Unlock()
		if due {
			// Also after the caller's deadline (a paced slice's): it
			// is outside the transaction and its turn.
			checkpointPassive(context.WithoutCancel(ctx), db.write)
		}
	}, nil
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
