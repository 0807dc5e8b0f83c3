package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/recall-mem/recall"
)

// The queue of a PostgreSQL store is not a table: a memory is queued when
// no vector of the current model was made from its current text (see
// VectorService), so every machine writing to the database sees the same
// queue and any of them may drain it.

// DefaultQueueInterval is how often RunQueue drains the queue when the
// store was opened without an interval.
const DefaultQueueInterval = 2 * time.Second

// queueState is what one process knows of the queue beyond the database:
// its own writes, and the last failure.
type queueState struct {
	mu        sync.Mutex
	queued    int64 // memories this process wrote without embedding them
	failing   int
	lastError string
}

// EmbedderModel names the embedder's model, "" for none.
func (s *VectorService) EmbedderModel() string {
	if s.Embedder == nil {
		return ""
	}
	return s.Embedder.Model()
}

// EmbedsInline reports whether writes embed as they commit.
func (s *VectorService) EmbedsInline() bool { return s.Inline }

// QueuedHere counts the memories this process wrote without embedding
// them (writes when not inline, or whose inline embedding failed).
func (s *VectorService) QueuedHere() int64 {
	s.queue.mu.Lock()
	defer s.queue.mu.Unlock()
	return s.queue.queued
}

// wrote is told of the memories ids written by this process: inline, it
// embeds them now (a failure leaves them queued and is reported to
// OnError, the write having committed); otherwise it counts them as
// queued.
func (s *VectorService) wrote(ctx context.Context, ids []string) {
	s.afterWrite(len(ids), func() error { return s.embedIDs(ctx, ids) })
}

// afterWrite embeds n memories just written with embed when inline (a
// failure leaves them queued and is reported to OnError), else counts
// them as queued.
func (s *VectorService) afterWrite(n int, embed func() error) {
	if n == 0 || s.Embedder == nil {
		return
	}
	if !s.Inline {
		s.queue.mu.Lock()
		s.queue.queued += int64(n)
		s.queue.mu.Unlock()
		return
	}
	if err := embed(); err != nil {
		s.failed(err, n)
	}
}

// embedIDs embeds those of the memories ids whose vectors are missing or
// stale, looking at those rows only.
func (s *VectorService) embedIDs(ctx context.Context, ids []string) error {
	e, err := s.embedder()
	if err != nil {
		return err
	}
	if err := s.ensureIndex(ctx, e.Dim()); err != nil {
		return fmt.Errorf("vector index: %w", err)
	}
	return inBatches(s.batchSize(), ids, func(part []string) error {
		_, err := s.embedRound(ctx, e, len(part), part)
		return err
	})
}

// failed records a failed embedding and reports it.
func (s *VectorService) failed(err error, n int) {
	s.queue.mu.Lock()
	s.queue.queued += int64(n)
	s.queue.failing = max(s.queue.failing, n)
	s.queue.lastError = err.Error()
	s.queue.mu.Unlock()
	if s.OnError != nil {
		s.OnError(err)
	}
}

// DrainQueue embeds queued memories for at most budget (0: until the
// queue is empty or ctx ends). A failure of the embedder is returned and
// recorded (see noteFailure); the memories stay queued.
func (s *VectorService) DrainQueue(ctx context.Context, budget time.Duration) error {
	if _, err := s.embedder(); err != nil {
		return err
	}
	dctx := ctx
	if budget > 0 {
		var cancel context.CancelFunc
		dctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	n, err := s.Embed(dctx, 0)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		err = nil // the budget ran out: the rest waits for the next drain
	}
	s.queue.mu.Lock()
	s.queue.queued = max(0, s.queue.queued-int64(n))
	if err == nil {
		s.queue.failing, s.queue.lastError = 0, ""
	}
	s.queue.mu.Unlock()
	if err != nil {
		s.failed(err, 0)
	}
	return err
}

// RunQueue drains the queue every Interval until ctx ends; failures go to
// OnError.
func (s *VectorService) RunQueue(ctx context.Context) {
	every := s.Interval
	if every <= 0 {
		every = DefaultQueueInterval
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		s.DrainQueue(ctx, every) //nolint:errcheck // reported through OnError
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// VectorStats reports the embedding coverage of the namespace and its
// queue: the memories without a current vector of the model.
func (s *VectorService) VectorStats(ctx context.Context) (*recall.VectorStats, error) {
	st := &recall.VectorStats{Model: s.EmbedderModel()}
	var at string
	err := s.db.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM memories WHERE namespace = $1),
		(SELECT count(*) FROM memories m WHERE m.namespace = $1 AND EXISTS (SELECT 1 FROM memory_vectors v
			WHERE v.namespace = m.namespace AND v.memory_id = m.id AND v.model = $2 AND v.text_hash = m.text_hash)),
		(SELECT count(*) FROM memory_vectors WHERE namespace = $1),
		coalesce((SELECT model FROM memory_vectors WHERE namespace = $1 GROUP BY model ORDER BY count(*) DESC, model LIMIT 1), ''),
		coalesce((SELECT value FROM store_meta WHERE namespace = $1 AND key = $3), ''),
		coalesce((SELECT value FROM store_meta WHERE namespace = $1 AND key = $4), '')`,
		s.db.Namespace, st.Model, metaEmbedError, metaEmbedErrorAt).Scan(&st.Memories, &st.Embedded, &st.Vectors, &st.StoredModel, &st.ProviderError, &at)
	if err != nil {
		return nil, fmt.Errorf("vector stats: %w", err)
	}
	if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
		st.ProviderErrorAt = &t
	}
	if s.Embedder != nil {
		st.Queued = st.Memories - st.Embedded
	}
	s.queue.mu.Lock()
	st.Failing, st.LastError = min(s.queue.failing, st.Queued), s.queue.lastError
	s.queue.mu.Unlock()
	return st, nil
}

// Reindex embeds the memories whose vectors are missing or stale (every
// memory with opts.All) and drops the vectors of other models.
func (s *VectorService) Reindex(ctx context.Context, opts recall.ReindexOptions) (*recall.ReindexResult, error) {
	e, err := s.embedder()
	if err != nil {
		return nil, err
	}
	res := &recall.ReindexResult{Model: e.Model(), Dim: e.Dim()}
	tag, err := s.db.pool.Exec(ctx, `DELETE FROM memory_vectors WHERE namespace = $1 AND (model <> $2 OR $3)`, s.db.Namespace, e.Model(), opts.All)
	if err != nil {
		return nil, fmt.Errorf("reindex: %w", err)
	}
	if !opts.All {
		res.Removed = int(tag.RowsAffected())
	}
	st, err := s.VectorStats(ctx)
	if err != nil {
		return nil, err
	}
	res.Total = st.Queued
	if opts.Progress != nil {
		opts.Progress(0, res.Total)
	}
	batch := s.BatchSize
	if batch <= 0 {
		batch = DefaultEmbedBatch
	}
	for res.Embedded < res.Total {
		n, err := s.Embed(ctx, batch)
		res.Embedded += n
		if opts.Progress != nil {
			opts.Progress(res.Embedded, res.Total)
		}
		if err != nil {
			return res, err
		}
		if n == 0 {
			break
		}
	}
	s.queue.mu.Lock()
	s.queue.queued, s.queue.failing, s.queue.lastError = 0, 0, ""
	s.queue.mu.Unlock()
	return res, nil
}
