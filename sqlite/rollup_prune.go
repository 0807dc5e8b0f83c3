package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/recall-mem/recall"
)

// pruneBatch is the most rollups one pruning transaction deletes. The
// session upkeep process lets hooks go between its transactions, and a
// hook that arrives during one waits for it: pruning a backlog's 4h
// rollups in one transaction (each takes its links to some hundred raw
// entries with it, and its full-text entry) took 100–210 ms under load,
// and as a paced slice's deadline cut it short it was rolled back and
// begun again in the next, longer slice. In batches each transaction
// takes a few ms and what one deletes stays deleted.
const pruneBatch = 8

// prune deletes, in transactions of at most pruneBatch rollups each,
// what pruneRollups deletes in one, and returns how many rollups went
// (so far, when it fails). A run stopped between batches leaves a store
// in which the rest are still to prune: the next run prunes them, and
// ends where an uninterrupted one would.
func (s *RollupService) prune(ctx context.Context, now time.Time, keep map[string]time.Duration) (int, error) {
	total := 0
	for _, typ := range recall.BucketTypes {
		if keep[typ] <= 0 {
			continue
		}
		for {
			var n int
			err := s.db.update(ctx, func(tx *Tx) (err error) {
				n, err = prunePast(ctx, tx, typ, now.Add(-keep[typ]), pruneBatch)
				return err
			})
			total += n
			if err != nil {
				return total, err
			}
			if n < pruneBatch {
				break
			}
		}
	}
	return total, nil
}

// pruneRollups deletes rollups already rolled into the next tier whose
// bucket ended more than keep[type] before now; their links go with them.
// It is the whole of prune in one transaction (a dry run counts with it).
func pruneRollups(ctx context.Context, tx *Tx, now time.Time, keep map[string]time.Duration) (int, error) {
	total := 0
	for _, typ := range recall.BucketTypes {
		if keep[typ] <= 0 {
			continue
		}
		n, err := prunePast(ctx, tx, typ, now.Add(-keep[typ]), -1)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// prunePast deletes up to limit (-1: all) rollups of type typ already
// rolled into the next tier whose bucket ended before cut, oldest bucket
// first, and returns how many it deleted.
func prunePast(ctx context.Context, tx *Tx, typ string, cut time.Time, limit int) (int, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM memory_rollups WHERE seq IN (
		SELECT seq FROM memory_rollups WHERE bucket_type = ? AND rolled_at IS NOT NULL AND bucket_end < ?
		ORDER BY bucket_start LIMIT ?)`, typ, iso(cut), limit)
	if err != nil {
		return 0, fmt.Errorf("prune %s rollups: %w", typ, err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
