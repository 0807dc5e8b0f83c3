package postgres

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rollup"
)

// RollupService rolls the namespace's closed time buckets up the tiers
// and reads its rollups.
type RollupService struct {
	db *DB
	// Policy cuts buckets and summarises them; it is pure, so everything
	// the job decides comes from the store, the policy and RollupRun.Now.
	Policy recall.RollupPolicy
}

var _ recall.RollupStore = (*RollupService)(nil)

// NewRollupService returns a RollupService over db with policy p (nil to
// read only).
func NewRollupService(db *DB, p recall.RollupPolicy) *RollupService {
	return &RollupService{db: db, Policy: p}
}

// rawMemoryCond selects the memories the job treats as raw entries, as on
// SQLite: active, typed, unkeyed, unpinned, not anchored to files and
// outside the working set.
const rawMemoryCond = `m.namespace = $1 AND m.status = 'active' AND m.type <> '' AND m.key IS NULL AND NOT m.pinned
	AND m.tier <> 'working' AND m.anchors = '[]'::jsonb`

// RunRollups runs the job: for each tier, finest first, every bucket that
// holds pending sources and is ready by run.Now is summarised and written
// in its own transaction, with its sources marked compacted (raw) or
// rolled (finer rollups), so a stopped run resumes where it stopped. A dry
// run does the same inside one transaction that it rolls back. One run at
// a time per namespace, across processes: a second waits for the first.
func (s *RollupService) RunRollups(ctx context.Context, run recall.RollupRun) (*recall.RollupReport, error) {
	if s.Policy == nil {
		return nil, fmt.Errorf("rollup: no policy")
	}
	if run.Now.IsZero() {
		run.Now = s.db.now()
	}
	rep := &recall.RollupReport{DryRun: run.DryRun, Buckets: map[string]int{}, Rollups: map[string]int{}}
	err := s.db.exclusive(ctx, jobRollups, func() error {
		if run.DryRun {
			t, err := s.db.pool.Begin(ctx)
			if err != nil {
				return err
			}
			defer t.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a dry run never commits
			tx := &Tx{Tx: t, db: s.db, now: s.db.now()}
			if err := s.run(ctx, run, rep, func(fn func(*Tx) error) error { return fn(tx) }); err != nil || len(run.Keep) == 0 {
				return err
			}
			// Counted in the transaction that is rolled back, after the
			// rolls that mark rollups as rolled, so the report says what
			// the real run would prune.
			rep.Pruned, err = tx.pruneRollups(ctx, run.Now, run.Keep)
			return err
		}
		if err := s.run(ctx, run, rep, func(fn func(*Tx) error) error { return s.db.tx(ctx, fn) }); err != nil || len(run.Keep) == 0 {
			return err
		}
		return s.db.tx(ctx, func(tx *Tx) (err error) {
			rep.Pruned, err = tx.pruneRollups(ctx, run.Now, run.Keep)
			return err
		})
	})
	if err != nil && ctx.Err() != nil {
		return rep, nil // stopped by the budget or the caller: resumable
	}
	if err != nil {
		return nil, err
	}
	rep.Done = true
	return rep, nil
}

// jobTx is one transaction of the rollup job (rollup.JobTx).
type jobTx struct {
	s  *RollupService
	tx *Tx
}

func (j jobTx) NextPending(ctx context.Context, finer string, after time.Time) (time.Time, bool, error) {
	return j.tx.nextPending(ctx, finer, after)
}

func (j jobTx) RollBucket(ctx context.Context, b recall.RollupBucket, finer string, rep *recall.RollupReport) (int, error) {
	return j.s.rollBucket(ctx, j.tx, b, finer, rep)
}

// run runs the job's tiers (rollup.RunTiers), each step in a transaction
// that inTx provides.
func (s *RollupService) run(ctx context.Context, run recall.RollupRun, rep *recall.RollupReport, inTx func(func(*Tx) error) error) error {
	return rollup.RunTiers(ctx, s.Policy, run, rep, func(fn func(rollup.JobTx) error) error {
		return inTx(func(tx *Tx) error { return fn(jobTx{s, tx}) })
	})
}

// pruneRollups deletes rollups already rolled into the next tier whose
// bucket ended more than keep[type] before now; their links go with them.
func (tx *Tx) pruneRollups(ctx context.Context, now time.Time, keep map[string]time.Duration) (int, error) {
	total := 0
	for _, typ := range recall.BucketTypes {
		d := keep[typ]
		if d <= 0 {
			continue
		}
		tag, err := tx.Exec(ctx, `DELETE FROM memory_rollups WHERE namespace = $1 AND bucket_type = $2 AND rolled_at IS NOT NULL AND bucket_end < $3`,
			tx.db.Namespace, typ, now.Add(-d).UTC())
		if err != nil {
			return 0, fmt.Errorf("prune %s rollups: %w", typ, err)
		}
		total += int(tag.RowsAffected())
	}
	return total, nil
}

// nextPending returns the time of the earliest pending source at or after
// after: a raw entry not yet compacted, or a finer rollup not yet rolled.
func (tx *Tx) nextPending(ctx context.Context, finer string, after time.Time) (time.Time, bool, error) {
	var from any // NULL: from the start
	if !after.IsZero() {
		from = after.UTC()
	}
	var t *time.Time
	var err error
	if finer != "" {
		err = tx.QueryRow(ctx, `SELECT min(bucket_start) FROM memory_rollups
			WHERE namespace = $1 AND bucket_type = $2 AND rolled_at IS NULL AND ($3::timestamptz IS NULL OR bucket_start >= $3)`,
			tx.db.Namespace, finer, from).Scan(&t)
	} else {
		err = tx.QueryRow(ctx, `SELECT least(
			(SELECT min(at) FROM observations WHERE namespace = $1 AND status = 'active' AND ($2::timestamptz IS NULL OR at >= $2)),
			(SELECT min(m.occurred_at) FROM memories m WHERE `+rawMemoryCond+` AND ($2::timestamptz IS NULL OR m.occurred_at >= $2)))`,
			tx.db.Namespace, from).Scan(&t)
	}
	if err != nil || t == nil {
		return time.Time{}, false, err
	}
	return t.UTC(), true, nil
}

// rollBucket summarises bucket b inside tx and writes the result.
func (s *RollupService) rollBucket(ctx context.Context, tx *Tx, b recall.RollupBucket, finer string, rep *recall.RollupReport) (int, error) {
	existing, err := queryRollups(ctx, tx, `SELECT `+rollupColumns+` FROM memory_rollups r WHERE r.namespace = $1 AND r.bucket_type = $2 AND r.bucket_start = $3`,
		tx.db.Namespace, b.Type, b.Start.UTC())
	if err != nil {
		return 0, err
	}
	created := map[string]time.Time{}
	for _, r := range existing {
		created[r.ID] = r.CreatedAt
	}
	var sources []recall.RollupSource
	merge := existing
	switch {
	case finer == "":
		sources, err = tx.loadRawSources(ctx, b)
	case len(existing) == 0:
		sources, err = tx.loadRollupSources(ctx, finer, b, false)
	default:
		// A coarser rollup is rebuilt from all its finer rollups, exactly,
		// unless some were pruned since: then the new ones merge into it.
		var pruned bool
		if pruned, err = tx.childrenPruned(ctx, b); err == nil {
			sources, err = tx.loadRollupSources(ctx, finer, b, pruned)
			if !pruned {
				merge = nil
			}
		}
	}
	if err != nil {
		return 0, err
	}
	rollups := s.Policy.Summarize(b, merge, sources)
	for _, r := range rollups {
		r.CreatedAt = created[r.ID]
		n, err := tx.resolveContradictions(ctx, r)
		if err != nil {
			return 0, err
		}
		rep.Conflicts += n
		if err := tx.upsertRollup(ctx, r); err != nil {
			return 0, err
		}
		if err := tx.linkSources(ctx, r); err != nil {
			return 0, err
		}
		if rep.DryRun {
			cp := *r
			cp.Sources = nil
			rep.Written = append(rep.Written, &cp)
		}
	}
	n, err := tx.markRolled(ctx, b, finer)
	if err != nil {
		return 0, err
	}
	rep.Compacted += n
	return len(rollups), nil
}

// childrenPruned reports whether a finer rollup that b's rollups were
// built from no longer exists.
func (tx *Tx) childrenPruned(ctx context.Context, b recall.RollupBucket) (bool, error) {
	var pruned bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM memory_rollup_sources l
		JOIN memory_rollups p ON p.namespace = l.namespace AND p.id = l.rollup_id AND p.bucket_type = $2 AND p.bucket_start = $3
		WHERE l.namespace = $1 AND l.source_kind = 'rollup'
		AND NOT EXISTS (SELECT 1 FROM memory_rollups c WHERE c.namespace = l.namespace AND c.id = l.source_id))`,
		tx.db.Namespace, b.Type, b.Start.UTC()).Scan(&pruned)
	return pruned, err
}

// loadRawSources reads the pending raw entries of b, oldest first. Only
// one bucket is ever in memory.
func (tx *Tx) loadRawSources(ctx context.Context, b recall.RollupBucket) ([]recall.RollupSource, error) {
	rows, err := tx.Query(ctx, `SELECT id, at, type, key, content FROM observations
		WHERE namespace = $1 AND status = 'active' AND at >= $2 AND at < $3 ORDER BY at, id`, tx.db.Namespace, b.Start.UTC(), b.End.UTC())
	out, err := collectRows(rows, err, func(r pgx.Row) (recall.RollupSource, error) {
		var id int64
		s := recall.RollupSource{Kind: recall.SourceObservation, Confidence: 1}
		err := r.Scan(&id, &s.At, &s.Type, &s.Key, &s.Text)
		s.ID, s.At = strconv.FormatInt(id, 10), s.At.UTC()
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("load observations: %w", err)
	}
	rows, err = tx.Query(ctx, `SELECT m.id, m.occurred_at, m.type, m.title, m.content, m.confidence FROM memories m
		WHERE `+rawMemoryCond+` AND m.occurred_at >= $2 AND m.occurred_at < $3 ORDER BY m.occurred_at, m.seq`, tx.db.Namespace, b.Start.UTC(), b.End.UTC())
	mems, err := collectRows(rows, err, func(r pgx.Row) (recall.RollupSource, error) {
		var title string
		s := recall.RollupSource{Kind: recall.SourceMemory}
		err := r.Scan(&s.ID, &s.At, &s.Type, &title, &s.Text, &s.Confidence)
		// An unkeyed memory is about what its title names: a stream of
		// memories titled "Editor" groups under the key "editor".
		s.At, s.Key = s.At.UTC(), recall.Slugify(title)
		if s.Text == "" {
			s.Text = title
		}
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("load memories: %w", err)
	}
	return append(out, mems...), nil
}

// loadRollupSources reads the finer rollups that start inside b: all of
// them, or only those not yet rolled (pendingOnly).
func (tx *Tx) loadRollupSources(ctx context.Context, finer string, b recall.RollupBucket, pendingOnly bool) ([]recall.RollupSource, error) {
	rs, err := queryRollups(ctx, tx, `SELECT `+rollupColumns+` FROM memory_rollups r
		WHERE r.namespace = $1 AND r.bucket_type = $2 AND r.bucket_start >= $3 AND r.bucket_start < $4 AND (NOT $5 OR r.rolled_at IS NULL)
		ORDER BY r.bucket_start, r.memory_type, r.key`, tx.db.Namespace, finer, b.Start.UTC(), b.End.UTC(), pendingOnly)
	if err != nil {
		return nil, err
	}
	out := make([]recall.RollupSource, len(rs))
	for i, r := range rs {
		out[i] = recall.RollupSource{Kind: recall.SourceRollup, ID: r.ID, At: r.BucketStart, Type: r.MemoryType, Key: r.Key,
			Text: r.Summary, Confidence: r.Confidence, Rollup: r}
	}
	return out, nil
}

// markRolled marks b's pending sources as taken in, with the same
// conditions that loaded them, and returns how many raw entries it
// compacted.
func (tx *Tx) markRolled(ctx context.Context, b recall.RollupBucket, finer string) (int, error) {
	ns, start, end := tx.db.Namespace, b.Start.UTC(), b.End.UTC()
	if finer != "" {
		_, err := tx.Exec(ctx, `UPDATE memory_rollups SET rolled_at = $5
			WHERE namespace = $1 AND bucket_type = $2 AND rolled_at IS NULL AND bucket_start >= $3 AND bucket_start < $4`,
			ns, finer, start, end, tx.now)
		return 0, err
	}
	t1, err := tx.Exec(ctx, `UPDATE observations SET status = 'compacted' WHERE namespace = $1 AND status = 'active' AND at >= $2 AND at < $3`, ns, start, end)
	if err != nil {
		return 0, fmt.Errorf("compact observations: %w", err)
	}
	// Compacting is a change of state, not of content: it writes no version.
	t2, err := tx.Exec(ctx, `UPDATE memories m SET status = 'compacted' WHERE `+rawMemoryCond+` AND m.occurred_at >= $2 AND m.occurred_at < $3`, ns, start, end)
	if err != nil {
		return 0, fmt.Errorf("compact memories: %w", err)
	}
	return int(t1.RowsAffected() + t2.RowsAffected()), nil
}
