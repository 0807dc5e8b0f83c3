package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/recall-mem/recall"
)

// Inline embedding. With a local embedder (VectorService.Inline), a write
// stores the vectors of the memories it changes in its own transaction
// rather than queueing them for a second one: a memory is searchable by
// vector the moment it commits, and a batch is written once. The queue
// stays the fallback: when the embedder fails, or the store holds vectors
// of another model, the memory is queued exactly as for a remote embedder,
// so a write is never lost or refused for its vectors.

// embedded is one passage of a memory and its vector, encoded as stored.
type embedded struct {
	chunk recall.Chunk
	vec   []byte
}

// txVectors is what a write transaction knows of the inline embedder.
type txVectors struct {
	checked bool
	e       recall.Embedder // nil: queue instead
	ahead   *aheadVectors
}

// aheadVectors are the passages of a batch's memories, embedded by a
// goroutine while the write transaction stores the memories: the embedder
// runs on one core and the single writer on another.
type aheadVectors struct {
	slot map[*recall.Memory]int
	out  []aheadResult
	done []chan struct{}
}

// aheadResult is one memory's text hash and passages, or why it has none.
type aheadResult struct {
	hash string
	ps   []embedded
	err  error
}

// embedAhead starts embedding ms for their write transaction, in order, so
// that the writer rarely waits; cancel ctx to stop it. It returns nil when
// embedding is not inline.
func (db *DB) embedAhead(ctx context.Context, ms []*recall.Memory) *aheadVectors {
	s := db.vectors
	if s == nil || !s.Inline || len(ms) < 2 {
		return nil
	}
	e, err := s.embedder(ctx)
	if err != nil {
		return nil
	}
	a := &aheadVectors{slot: make(map[*recall.Memory]int, len(ms)), out: make([]aheadResult, len(ms)), done: make([]chan struct{}, len(ms))}
	for i, m := range ms {
		a.slot[m] = i
		a.done[i] = make(chan struct{})
	}
	go func() {
		for i, m := range ms {
			if a.out[i].err = ctx.Err(); a.out[i].err == nil {
				a.out[i].hash = textHash(m.Title, m.Content)
				a.out[i].ps, a.out[i].err = s.embedText(ctx, e, m.Title, m.Content)
			}
			close(a.done[i])
		}
	}()
	return a
}

// result waits for m's entry; found is false when m is not in the batch.
// ImportMemories does not change the text of the memories it hands over,
// so the entry is m's current text.
func (a *aheadVectors) result(m *recall.Memory) (r aheadResult, found bool) {
	if a == nil {
		return aheadResult{}, false
	}
	i, ok := a.slot[m]
	if !ok {
		return aheadResult{}, false
	}
	<-a.done[i] // the goroutine closes every channel, even once cancelled
	return a.out[i], true
}

// embedText splits a memory into passages and embeds them.
func (s *VectorService) embedText(ctx context.Context, e recall.Embedder, title, content string) ([]embedded, error) {
	chunks := s.passages(queuedItem{title: title, content: content})
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = passageText(title, c, content)
	}
	vs, err := s.embedTexts(ctx, e, texts)
	if err != nil {
		return nil, err
	}
	out := make([]embedded, len(chunks))
	for i, v := range vs {
		out[i] = embedded{chunk: chunks[i], vec: encodeVector(nil, v)}
	}
	return out, nil
}

// inlineEmbedder returns the embedder a write may use inline, or nil when
// its memories must be queued. It is looked up once per transaction.
func (tx *Tx) inlineEmbedder(ctx context.Context) (recall.Embedder, error) {
	if tx.vec.checked {
		return tx.vec.e, nil
	}
	tx.vec.checked = true
	s := tx.db.vectors
	if s == nil || !s.Inline {
		return nil, nil
	}
	e, err := s.embedder(ctx)
	if err != nil {
		return nil, nil
	}
	if err := s.checkModel(ctx, tx, e); err != nil {
		if recall.ErrorCode(err) == recall.EUNAVAILABLE {
			return nil, nil // vectors of another model: `recall reindex` rebuilds all
		}
		return nil, err
	}
	if err := setStoredModelOnce(ctx, tx, e); err != nil {
		return nil, err
	}
	tx.vec.e = e
	return e, nil
}

// Statements embedInTx runs.
const (
	sqlVectorHash = `SELECT hash FROM memory_vectors WHERE memory_seq = ? AND chunk = 0`
	sqlMemorySeq  = `SELECT seq FROM memories WHERE id = ?`
	sqlUnqueue    = `DELETE FROM embed_queue WHERE memory_seq = ?`
)

// embedInTx stores the vectors of m's current version in tx. It reports
// false when m must be queued instead. fresh says that m was inserted by
// this transaction, so it has no vectors and no queue entry to replace
// (the statements that would remove them fire triggers, and a statement
// with a trigger makes FTS5 flush its pending terms: see migration 0008).
func embedInTx(ctx context.Context, tx *Tx, m *recall.Memory, seq int64, fresh bool) (bool, error) {
	e, err := tx.inlineEmbedder(ctx)
	if e == nil || err != nil {
		return false, err
	}
	r, found := tx.vec.ahead.result(m)
	if !found {
		r.hash = textHash(m.Title, m.Content)
	}
	hash := r.hash
	if seq == 0 {
		if err := tx.QueryRowContext(ctx, sqlMemorySeq, m.ID).Scan(&seq); err != nil {
			return false, fmt.Errorf("embed: %w", err)
		}
	}
	if !fresh {
		var old string
		err := tx.QueryRowContext(ctx, sqlVectorHash, seq).Scan(&old)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("embed: %w", err)
		}
		if _, err := tx.exec(ctx, sqlUnqueue, seq); err != nil {
			return false, fmt.Errorf("embed: %w", err)
		}
		if old == hash { // same text: the vectors stay, now for this version
			_, err := tx.exec(ctx, sqlKeepVectors, m.Version, seq)
			return err == nil, err
		}
	}
	if !found {
		r.ps, r.err = tx.db.vectors.embedText(ctx, e, m.Title, m.Content)
	}
	if r.err != nil { // embedded ahead or here, it failed once: queue it
		tx.db.vectors.report(fmt.Errorf("embed %s: %w (queued)", m.ID, r.err))
		return false, nil
	}
	if !fresh {
		if _, err := tx.exec(ctx, sqlDropVectors, seq); err != nil {
			return false, fmt.Errorf("embed: %w", err)
		}
	}
	for _, p := range r.ps {
		if _, err := tx.exec(ctx, sqlInsertVector, seq, m.ID, p.chunk.Index, m.Version, hash, e.Model(), e.Dim(), p.chunk.Start, p.chunk.End, p.vec); err != nil {
			return false, fmt.Errorf("embed: %w", err)
		}
	}
	return true, nil
}
