package sqlite

import (
	"context"
	"database/sql"
	"fmt"
)

// A batch of an import (ImportMemories of bulkMinRows or more) commits
// with synchronous = FULL and checkpoints only past bulkCheckpointPages
// WAL pages, instead of the store's NORMAL and SQLite's 1,000.
//
// With NORMAL in WAL mode a commit is written to the WAL but synced only
// by the next checkpoint, so the checkpoint is what makes commits survive
// a power loss, and running it less often would let more of them be lost.
// With FULL each commit's frames are synced before the commit returns: it
// is durable at once, which is stronger than NORMAL, and the checkpoint no
// longer carries durability, only the WAL's length. Batches of 1,000 at
// 100,000 memories dirty most leaf pages of the indexes keyed by random
// ids (memories.id, memory_versions), so a checkpoint every second batch
// copied those pages back to the database (and synced it) only for the
// next batch to dirty them again. A batch of fewer rows keeps the
// store's settings: its one sync at the commit would cost more than the
// share of a checkpoint it saves.
//
// The settings are the writer connection's, set while the transaction
// holds it and put back before it is given back, synchronous last: the
// connection never checkpoints rarely under NORMAL, even if putting back
// fails (it then stays at FULL, stronger). A store whose automatic
// checkpoint is off (a gated writer, see gatedBegin) is left as it is.
const (
	bulkCheckpointPages = 8000 // 125 MiB of 16 KiB pages at most, plus a batch
	bulkMinRows         = 256
)

// bulkSync is the writer connection's settings a bulk transaction
// changed, to put back; the zero value changed nothing.
type bulkSync struct {
	checkpoint int // the wal_autocheckpoint to put back; 0: nothing set
	sync       int // the synchronous level to put back
}

// setBulkSync sets c, the writer connection outside a transaction, up
// for a bulk transaction and returns what to put back.
func setBulkSync(ctx context.Context, c *sql.Conn) (bulkSync, error) {
	var b bulkSync
	if err := c.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&b.checkpoint); err != nil {
		return bulkSync{}, err
	}
	if b.checkpoint <= 0 || b.checkpoint >= bulkCheckpointPages {
		return bulkSync{}, nil
	}
	if err := c.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&b.sync); err != nil {
		return bulkSync{}, err
	}
	// FULL first: the longer WAL is never left to NORMAL's sync.
	if _, err := c.ExecContext(ctx, `PRAGMA synchronous = FULL`); err != nil {
		return bulkSync{}, err
	}
	if _, err := c.ExecContext(ctx, fmt.Sprintf(`PRAGMA wal_autocheckpoint = %d`, bulkCheckpointPages)); err != nil {
		_, _ = c.ExecContext(ctx, fmt.Sprintf(`PRAGMA synchronous = %d`, b.sync))
		return bulkSync{}, err
	}
	return b, nil
}

// restore puts c's settings back, the checkpoint's first; if that fails,
// synchronous stays FULL.
func (b bulkSync) restore(ctx context.Context, c *sql.Conn) {
	if b.checkpoint == 0 {
		return
	}
	if _, err := c.ExecContext(ctx, fmt.Sprintf(`PRAGMA wal_autocheckpoint = %d`, b.checkpoint)); err != nil {
		return
	}
	_, _ = c.ExecContext(ctx, fmt.Sprintf(`PRAGMA synchronous = %d`, b.sync))
}
