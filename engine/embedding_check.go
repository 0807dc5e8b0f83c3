package engine

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
)

// warnEmbedding prints one warning about embedding per process: a
// provider that is down fails every batch and every memory.
func (e *Engine) warnEmbedding(format string, args ...any) {
	if e.embedWarned.CompareAndSwap(false, true) {
		e.logf(format, args...)
	}
}

// writeEmbedBudget bounds the embedding a command that queued memories
// tries before it exits, so that they are searchable by vector at once
// and a provider that is down is noticed (and costs a write this much).
const writeEmbedBudget = 2 * time.Second

// CheckEmbedding runs after a command that queued memories for embedding
// (all its writes for a remote provider, failed ones for an inline
// embedder). It embeds them if the provider answers in time, and
// otherwise warns once on stderr that they wait and why: a write never
// fails for its vectors, but it must not hide that search cannot see them.
// The built-in encoder's queue is left to the next search, `serve` or
// `reindex`: it has no provider to be down, and loading the model would
// make every write pay for it.
func (e *Engine) CheckEmbedding(ctx context.Context) {
	if e.vec == nil || e.vec.QueuedHere() == 0 || ctx.Err() != nil || IsBuiltin(e.Config.Retrieval) {
		return
	}
	_ = e.vec.DrainQueue(ctx, writeEmbedBudget) // a failure is recorded in the store
	st, err := e.vec.VectorStats(ctx)
	if err != nil {
		return
	}
	if st.Queued > 0 && st.ProviderError != "" {
		e.warnEmbedding("recall: warning: memories waiting for embedding: %d; search ranks them by full text only until it succeeds (`recall doctor` shows the queue): %s\n",
			st.Queued, st.ProviderError)
	}
}

// vectors is the vector searcher for the ranking code: nil before open.
func (e *Engine) vectors() recall.VectorSearcher { return e.vec }
