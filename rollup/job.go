package rollup

import (
	"context"
	"fmt"
	"time"

	"github.com/recall-mem/recall"
)

// JobTx is a store's side of one step of the rollup job, inside one of
// its transactions.
type JobTx interface {
	// NextPending returns the time of the earliest pending source at or
	// after after (zero: from the start): a raw entry not yet compacted
	// when finer is "", else a rollup of tier finer not yet rolled.
	NextPending(ctx context.Context, finer string, after time.Time) (time.Time, bool, error)
	// RollBucket summarises bucket b from its pending sources, writes the
	// rollups and marks the sources taken in; it returns how many rollups
	// it wrote.
	RollBucket(ctx context.Context, b recall.RollupBucket, finer string, rep *recall.RollupReport) (int, error)
}

// RunTiers walks the tiers, finest first, rolling every bucket that holds
// pending sources and is ready by run.Now, each in its own call of inTx
// (one transaction of the store), so a stopped run leaves whole buckets
// behind and the next run picks up the rest. It is the job's order of
// work, the same on every store.
func RunTiers(ctx context.Context, p recall.RollupPolicy, run recall.RollupRun, rep *recall.RollupReport, inTx func(func(JobTx) error) error) error {
	for i, typ := range recall.BucketTypes {
		finer := ""
		if i > 0 {
			finer = recall.BucketTypes[i-1]
		}
		var after time.Time
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			var b recall.RollupBucket
			var written int
			err := inTx(func(tx JobTx) error {
				t, ok, err := tx.NextPending(ctx, finer, after)
				if err != nil || !ok {
					return err
				}
				b = p.Bucket(typ, t)
				if b.Ready.After(run.Now) || !b.End.After(t) {
					b = recall.RollupBucket{}
					return nil
				}
				written, err = tx.RollBucket(ctx, b, finer, rep)
				return err
			})
			if err != nil {
				return fmt.Errorf("rollup %s: %w", typ, err)
			}
			if b.Type == "" {
				break
			}
			after = b.End
			rep.Buckets[typ]++
			rep.Rollups[typ] += written
			if run.OnBucket != nil {
				run.OnBucket(b, written)
			}
		}
	}
	return nil
}
