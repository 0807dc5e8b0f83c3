package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rollup"
)

// RollupService rolls closed time buckets up the tiers and reads rollups.
type RollupService struct {
	db *DB
	// Policy cuts buckets and summarises them; it is pure, so everything
	// the job decides comes from the store, the policy and RollupRun.Now.
	Policy recall.RollupPolicy
}

var _ recall.RollupService = (*RollupService)(nil)

// NewRollupService returns a RollupService over db with policy p.
func NewRollupService(db *DB, p recall.RollupPolicy) *RollupService {
	return &RollupService{db: db, Policy: p}
}

// rawMemoryCond selects the memories the job treats as raw entries: active,
// typed (a preference, fact, decision… that a stream can repeat), unkeyed
// (a keyed memory is curated and already keeps only its latest value, with
// versions for history), unpinned, not anchored to files and outside the
// working set. Untyped notes and documents, and the entries of the managed
// markdown files, are curated: compacting them would hide them from search.
const rawMemoryCond = `m.status = 'active' AND m.type != '' AND m.key IS NULL AND m.pinned = 0 AND m.tier != 'working' AND m.anchors = '[]'`

// RunRollups runs the job: for each tier, finest first, every bucket that
// holds pending sources and is ready by run.Now is summarised and written
// in its own transaction, with its sources marked compacted (raw) or
// rolled (finer rollups). A stopped run leaves whole buckets behind and the
// next run picks up the rest, so a resumed run ends where an uninterrupted
// one would. A dry run does the same inside one transaction that it rolls
// back, so coarser tiers see what the finer ones would have written.
func (s *RollupService) RunRollups(ctx context.Context, run recall.RollupRun) (*recall.RollupReport, error) {
	if s.Policy == nil {
		return nil, fmt.Errorf("rollup: no policy")
	}
	if run.Now.IsZero() {
		run.Now = s.db.now()
	}
	rep := &recall.RollupReport{DryRun: run.DryRun, Buckets: map[string]int{}, Rollups: map[string]int{}}
	var err error
	if run.DryRun {
		var tx *Tx
		if tx, err = s.db.beginWrite(ctx); err != nil {
			return nil, err
		}
		defer tx.Rollback()
		err = s.run(ctx, run, rep, func(fn func(*Tx) error) error { return fn(tx) })
		if err == nil && len(run.Keep) > 0 {
			// Counted in the transaction that is rolled back, so the
			// report says what the real run would prune.
			rep.Pruned, err = pruneRollups(ctx, tx, run.Now, run.Keep)
		}
	} else {
		err = s.run(ctx, run, rep, func(fn func(*Tx) error) error { return s.db.update(ctx, fn) })
		if err == nil && len(run.Keep) > 0 {
			rep.Pruned, err = s.prune(ctx, run.Now, run.Keep)
		}
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
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
	return nextPending(ctx, j.tx, finer, after)
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

// nextPending returns the time of the earliest pending source at or after
// after: a raw entry not yet compacted, or a finer rollup not yet rolled.
func nextPending(ctx context.Context, tx *Tx, finer string, after time.Time) (time.Time, bool, error) {
	if finer != "" {
		var start sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT MIN(bucket_start) FROM memory_rollups
			WHERE bucket_type = ? AND rolled_at IS NULL AND bucket_start >= ?`, finer, isoAfter(after)).Scan(&start)
		if err != nil || !start.Valid {
			return time.Time{}, false, err
		}
		return fromISO(start.String), true, nil
	}
	var obs, mem sql.NullInt64
	from := msAfter(after)
	if err := tx.QueryRowContext(ctx, `SELECT MIN(at) FROM observations WHERE status = 'active' AND at >= ?`, from).Scan(&obs); err != nil {
		return time.Time{}, false, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT MIN(m.occurred_at) FROM memories m WHERE `+rawMemoryCond+` AND m.occurred_at >= ?`, from).Scan(&mem); err != nil {
		return time.Time{}, false, err
	}
	switch {
	case obs.Valid && (!mem.Valid || obs.Int64 <= mem.Int64):
		return fromMS(obs.Int64), true, nil
	case mem.Valid:
		return fromMS(mem.Int64), true, nil
	}
	return time.Time{}, false, nil
}

func isoAfter(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return iso(t)
}

func msAfter(t time.Time) int64 {
	if t.IsZero() {
		return -1 << 62
	}
	return ms(t)
}

// rollBucket summarises bucket b inside tx and writes the result.
func (s *RollupService) rollBucket(ctx context.Context, tx *Tx, b recall.RollupBucket, finer string, rep *recall.RollupReport) (int, error) {
	existing, err := queryRollups(ctx, tx, `SELECT `+rollupColumns+` FROM memory_rollups r WHERE r.bucket_type = ? AND r.bucket_start = ?`,
		b.Type, iso(b.Start))
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
		sources, err = loadRawSources(ctx, tx, b)
	case len(existing) == 0:
		sources, err = loadRollupSources(ctx, tx, finer, b, false)
	default:
		// A coarser rollup is rebuilt from all its finer rollups, exactly,
		// unless some were pruned since: then the new ones merge into it.
		var pruned bool
		if pruned, err = childrenPruned(ctx, tx, b); err == nil {
			sources, err = loadRollupSources(ctx, tx, finer, b, pruned)
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
		n, err := resolveContradictions(ctx, tx, r)
		if err != nil {
			return 0, err
		}
		rep.Conflicts += n
		if err := upsertRollup(ctx, tx, r); err != nil {
			return 0, err
		}
		if err := linkSources(ctx, tx, r); err != nil {
			return 0, err
		}
		if rep.DryRun {
			cp := *r
			cp.Sources = nil
			rep.Written = append(rep.Written, &cp)
		}
	}
	n, err := markRolled(ctx, tx, b, finer)
	if err != nil {
		return 0, err
	}
	rep.Compacted += n
	return len(rollups), nil
}

// childrenPruned reports whether a finer rollup that b's rollups were
// built from no longer exists.
func childrenPruned(ctx context.Context, tx *Tx, b recall.RollupBucket) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_rollup_sources l
		JOIN memory_rollups p ON p.id = l.rollup_id AND p.bucket_type = ? AND p.bucket_start = ?
		WHERE l.source_kind = 'rollup' AND NOT EXISTS (SELECT 1 FROM memory_rollups c WHERE c.id = l.source_id)`,
		b.Type, iso(b.Start)).Scan(&n)
	return n > 0, err
}

// loadRawSources reads the pending raw entries of b, oldest first. Only
// one bucket is ever in memory.
func loadRawSources(ctx context.Context, tx *Tx, b recall.RollupBucket) ([]recall.RollupSource, error) {
	var out []recall.RollupSource
	rows, err := tx.QueryContext(ctx, `SELECT id, at, type, key, content FROM observations
		WHERE status = 'active' AND at >= ? AND at < ? ORDER BY at, id`, ms(b.Start), ms(b.End))
	if err != nil {
		return nil, fmt.Errorf("load observations: %w", err)
	}
	for rows.Next() {
		var id, at int64
		s := recall.RollupSource{Kind: recall.SourceObservation, Confidence: 1}
		if err := rows.Scan(&id, &at, &s.Type, &s.Key, &s.Text); err != nil {
			rows.Close()
			return nil, err
		}
		s.ID, s.At = strconv.FormatInt(id, 10), fromMS(at)
		out = append(out, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = tx.QueryContext(ctx, `SELECT m.id, m.occurred_at, m.type, m.title, m.content, m.confidence FROM memories m
		WHERE `+rawMemoryCond+` AND m.occurred_at >= ? AND m.occurred_at < ? ORDER BY m.occurred_at, m.seq`, ms(b.Start), ms(b.End))
	if err != nil {
		return nil, fmt.Errorf("load memories: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var at int64
		var title string
		s := recall.RollupSource{Kind: recall.SourceMemory}
		if err := rows.Scan(&s.ID, &at, &s.Type, &title, &s.Text, &s.Confidence); err != nil {
			return nil, err
		}
		// An unkeyed memory is about what its title names: a stream of
		// memories titled "Editor" groups under the key "editor".
		s.At, s.Key = fromMS(at), recall.Slugify(title)
		if s.Text == "" {
			s.Text = title
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// loadRollupSources reads the finer rollups that start inside b: all of
// them, or only those not yet rolled (pendingOnly).
func loadRollupSources(ctx context.Context, tx *Tx, finer string, b recall.RollupBucket, pendingOnly bool) ([]recall.RollupSource, error) {
	cond := ""
	if pendingOnly {
		cond = " AND r.rolled_at IS NULL"
	}
	rs, err := queryRollups(ctx, tx, `SELECT `+rollupColumns+` FROM memory_rollups r
		WHERE r.bucket_type = ? AND r.bucket_start >= ? AND r.bucket_start < ?`+cond+` ORDER BY r.bucket_start, r.memory_type, r.key`,
		finer, iso(b.Start), iso(b.End))
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
func markRolled(ctx context.Context, tx *Tx, b recall.RollupBucket, finer string) (int, error) {
	if finer != "" {
		_, err := tx.ExecContext(ctx, `UPDATE memory_rollups SET rolled_at = ?
			WHERE bucket_type = ? AND rolled_at IS NULL AND bucket_start >= ? AND bucket_start < ?`,
			iso(tx.now), finer, iso(b.Start), iso(b.End))
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `UPDATE observations SET status = 'compacted' WHERE status = 'active' AND at >= ? AND at < ?`, ms(b.Start), ms(b.End))
	if err != nil {
		return 0, fmt.Errorf("compact observations: %w", err)
	}
	n1, _ := res.RowsAffected()
	// Compacting is a change of state, not of content: it writes no version.
	res, err = tx.ExecContext(ctx, `UPDATE memories AS m SET status = 'compacted' WHERE `+rawMemoryCond+` AND m.occurred_at >= ? AND m.occurred_at < ?`, ms(b.Start), ms(b.End))
	if err != nil {
		return 0, fmt.Errorf("compact memories: %w", err)
	}
	n2, _ := res.RowsAffected()
	return int(n1 + n2), nil
}
