package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/recall-mem/recall"
)

// drainBatch is how many queued memories one drain step loads.
const drainBatch = 256

// tombstonesKept bounds vector_tombstones; a process whose index is older
// than the oldest one kept reloads its index in full.
const tombstonesKept = 100000

// DrainQueue embeds queued memories for at most budget (0: until the queue
// is empty or ctx ends). It does nothing without an embedder or while the
// stored vectors belong to another model (`recall reindex` handles that).
// Returns the embedder's error, EUNAVAILABLE for a remote provider that
// cannot be reached, and records it (see vector_health.go); the memories
// stay queued.
func (s *VectorService) DrainQueue(ctx context.Context, budget time.Duration) error {
	if budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	e, err := s.embedder(ctx)
	if err != nil {
		if s.Embedder == nil || s.Embedder.Model() == "none" || isCutShort(err) {
			return nil // nothing to embed with, by configuration, or no time to tell
		}
		// A provider that cannot even say its dimension is down: when
		// memories wait for it, that is recorded and returned.
		var waiting int
		if qerr := s.db.read.QueryRowContext(context.WithoutCancel(ctx), `SELECT COUNT(*) FROM (SELECT 1 FROM embed_queue LIMIT 1)`).Scan(&waiting); qerr != nil || waiting == 0 {
			return nil
		}
		s.noteFailure(err)
		return err
	}
	// A search process drains here at every search: the statements are
	// kept, not prepared each time.
	if err := s.checkModel(ctx, keptReads{s.db}, e); err != nil {
		return nil
	}
	for ctx.Err() == nil {
		items, err := s.loadQueued(ctx, e)
		if err != nil || len(items) == 0 {
			return ignoreDeadline(ctx, err)
		}
		if _, err := s.embedItems(ctx, e, items); err != nil {
			return ignoreDeadline(ctx, err)
		}
	}
	return nil
}

// ignoreDeadline drops the error of a step cut short by the time budget.
func ignoreDeadline(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return nil
	}
	return err
}

// Run drains the queue every Interval until ctx ends; a server starts it
// in a goroutine. With Interval 0 it returns at once. Errors go to OnError.
func (s *VectorService) Run(ctx context.Context) {
	if s.Interval <= 0 {
		return
	}
	t := time.NewTicker(s.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.report(s.DrainQueue(ctx, s.Interval))
		}
	}
}

// ReindexOptions configure Reindex.
type ReindexOptions = recall.ReindexOptions

// ReindexResult counts what Reindex did.
type ReindexResult = recall.ReindexResult

// Reindex embeds every memory whose vectors are missing or stale (another
// model, an older version), or all with opts.All, and then makes the
// configured model the store's vector model. Returns EUNAVAILABLE when
// there is no embedder or it cannot be reached; what was done stays done
// and a rerun continues.
func (s *VectorService) Reindex(ctx context.Context, opts ReindexOptions) (*ReindexResult, error) {
	e, err := s.embedder(ctx)
	if err != nil {
		return nil, err
	}
	res := &ReindexResult{Model: e.Model(), Dim: e.Dim()}
	err = s.db.update(ctx, func(tx *Tx) error {
		cond := `NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.memory_seq = m.seq AND v.chunk = 0
			AND v.model = ? AND v.dim = ? AND v.version = m.version)`
		args := []any{e.Model(), e.Dim()}
		if opts.All {
			if _, err := tx.ExecContext(ctx, `UPDATE memory_vectors SET hash = ''`); err != nil {
				return err
			}
			cond, args = "1", nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO embed_queue (memory_seq, version, queued_at)
			SELECT m.seq, m.version, ? FROM memories m WHERE `+cond+` ON CONFLICT (memory_seq) DO NOTHING`,
			append([]any{ms(tx.now)}, args...)...)
		if err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM embed_queue`).Scan(&res.Total)
	})
	if err != nil {
		return nil, fmt.Errorf("reindex: %w", err)
	}
	if opts.Progress != nil {
		opts.Progress(0, res.Total)
	}
	for {
		items, err := s.loadQueued(ctx, e)
		if err != nil {
			return res, err
		}
		if len(items) == 0 {
			break
		}
		n, err := s.embedItems(ctx, e, items)
		res.Embedded += n
		if opts.Progress != nil {
			opts.Progress(min(res.Embedded, res.Total), res.Total)
		}
		if err != nil {
			return res, err
		}
	}
	err = s.db.update(ctx, func(tx *Tx) error {
		r, err := tx.ExecContext(ctx, `DELETE FROM memory_vectors WHERE model != ? OR dim != ?`, e.Model(), e.Dim())
		if err != nil {
			return err
		}
		n, _ := r.RowsAffected()
		res.Removed = int(n)
		if _, err := tx.ExecContext(ctx, `DELETE FROM vector_tombstones WHERE id <= (SELECT MAX(id) FROM vector_tombstones) - ?`, tombstonesKept); err != nil {
			return err
		}
		return setStoredModel(ctx, tx, e)
	})
	if err != nil {
		return res, fmt.Errorf("reindex: %w", err)
	}
	return res, nil
}
