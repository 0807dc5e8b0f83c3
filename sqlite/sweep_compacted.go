package sqlite

import (
	"context"
	"fmt"
	"time"
)

// SweepCompacted deletes raw entries that rollups have compacted and that
// are older than before (observations by time, memories by occurred_at),
// keeping pinned ones, with the versions of the memories, and returns how
// many entries it deleted. It is the plain
// form of the raw-retention sweep that `recall bench rollup` simulates;
// the forgetting policy (type-aware, secure) is a separate concern.
func (db *DB) SweepCompacted(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := db.update(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM observations WHERE status = 'compacted' AND pinned = 0 AND at < ?`, ms(before))
		if err != nil {
			return fmt.Errorf("sweep observations: %w", err)
		}
		a, _ := res.RowsAffected()
		// A swept memory's history goes with it: forgetting keeps no copy.
		if _, err = tx.ExecContext(ctx, `DELETE FROM memory_versions WHERE memory_id IN (
			SELECT id FROM memories WHERE status = 'compacted' AND pinned = 0 AND occurred_at < ?)`, ms(before)); err != nil {
			return fmt.Errorf("sweep memory versions: %w", err)
		}
		if res, err = tx.ExecContext(ctx, `DELETE FROM memories WHERE status = 'compacted' AND pinned = 0 AND occurred_at < ?`, ms(before)); err != nil {
			return fmt.Errorf("sweep memories: %w", err)
		}
		b, _ := res.RowsAffected()
		n = a + b
		return nil
	})
	return int(n), err
}

// LiveBytes is the space the store's pages hold, without free pages:
// (page_count − freelist_count) × page_size.
func (db *DB) LiveBytes(ctx context.Context) (int64, error) {
	var pages, free, size int64
	for q, dst := range map[string]*int64{`PRAGMA page_count`: &pages, `PRAGMA freelist_count`: &free, `PRAGMA page_size`: &size} {
		if err := db.read.QueryRowContext(ctx, q).Scan(dst); err != nil {
			return 0, fmt.Errorf("%s: %w", q, err)
		}
	}
	return (pages - free) * size, nil
}
