// Package retrieve is recall's hybrid searcher: full-text (BM25) and vector
// candidates fused by reciprocal rank, adjusted for recency, tier, pins,
// confidence and status, then diversified so near-duplicates do not crowd
// the top. It depends on the store only through the root interfaces.
package retrieve

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rank"
)

// Searcher implements recall.Searcher over a text index and, optionally, a
// vector index.
type Searcher struct {
	// Text returns BM25-ranked candidates (the store's full-text search).
	Text recall.Searcher
	// Vectors returns passages near the query; nil means none configured.
	Vectors recall.VectorSearcher
	// Memories loads vector candidates under the query's filter.
	Memories recall.MemoryService
	// Now is the clock for relative time words when a query has no Now.
	Now func() time.Time

	Options Options
}

var _ recall.Searcher = (*Searcher)(nil)

// Options tune ranking. The zero value means DefaultOptions.
type Options struct {
	Candidates   int     // per source
	Fusion       string  // "rrf" (reciprocal rank) or "score" (weighted sum of max-normalised scores)
	RRFK         float64 // reciprocal-rank-fusion constant
	TextWeight   float64 // weight of the BM25 list in fusion
	VectorWeight float64 // weight of the vector list in fusion
	Weights      rank.Weights
	// MMRLambda trades relevance (1) against novelty (0); 1 turns MMR off.
	MMRLambda float64
	// Episode is how much a memory borrows from the best other candidate
	// that occurred within EpisodeWindow of it (a conversation session, a
	// meeting): evidence for one topic clusters in time.
	Episode       float64
	EpisodeWindow time.Duration
}

// DefaultOptions are the measured defaults (docs/retrieval.md).
func DefaultOptions() Options {
	return Options{
		Candidates:    100,
		Fusion:        "rrf",
		RRFK:          rank.DefaultRRFK,
		TextWeight:    1,
		VectorWeight:  1,
		Weights:       rank.DefaultWeights(),
		MMRLambda:     0.9,
		Episode:       0,
		EpisodeWindow: time.Hour,
	}
}

func (s *Searcher) options() Options {
	if s.Options.Candidates == 0 {
		return DefaultOptions()
	}
	return s.Options
}

// candidate is one memory under consideration.
type candidate struct {
	m                    *recall.Memory
	bm25, vector         float64
	bm25Rank, vectorRank int
	snippet              string
	fused, score         float64
	adjust               map[string]float64
}

// Search ranks memories for q. Returns EINVALID for an unknown mode or a
// bad filter, and EUNAVAILABLE in vector mode when no vector index can
// answer; hybrid mode then falls back to full text and says so in Explain.
func (s *Searcher) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	mode := q.Mode
	if mode == "" {
		mode = recall.ModeHybrid
	}
	if mode != recall.ModeHybrid && mode != recall.ModeBM25 && mode != recall.ModeVector {
		return nil, recall.Errorf(recall.EINVALID, "Unknown search mode %q: use hybrid, bm25 or vector.", mode)
	}
	o := s.options()
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	now := q.Now
	if now.IsZero() && s.Now != nil {
		now = s.Now()
	}
	if now.IsZero() {
		now = time.Now()
	}
	text := strings.TrimSpace(q.Text)
	if text == "" {
		return nil, nil
	}
	cands := map[string]*candidate{}
	var textIDs, vecIDs []string
	if mode != recall.ModeVector {
		hits, err := s.Text.Search(ctx, recall.SearchQuery{Text: text, Filter: q.Filter, Limit: max(o.Candidates, limit), Now: now})
		if err != nil {
			return nil, err
		}
		for i, h := range hits {
			c := &candidate{m: h.Memory, bm25: h.Score, bm25Rank: i + 1, snippet: h.Snippet}
			cands[h.Memory.ID] = c
			textIDs = append(textIDs, h.Memory.ID)
		}
	}
	note := ""
	if mode != recall.ModeBM25 {
		ids, err := s.vectorCandidates(ctx, text, q.Filter, max(o.Candidates, limit), cands)
		switch {
		case err == nil:
			vecIDs = ids
		case recall.ErrorCode(err) == recall.EUNAVAILABLE && mode == recall.ModeHybrid:
			note = "vector search unavailable (" + recall.ErrorMessage(err) + "); ranked by full text only"
		default:
			return nil, err
		}
	}
	fused := s.fuse(o, cands, textIDs, vecIDs)
	for id, f := range fused {
		cands[id].fused = f
	}
	if o.Episode > 0 {
		episodeBoost(cands, o.Episode, o.EpisodeWindow)
	}
	list := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		c.score, c.adjust = rank.Adjust(c.fused, c.m, now, o.Weights)
		list = append(list, c)
	}
	list = order(list)
	list = diversify(list, o.MMRLambda, limit)
	terms := queryTerms(text)
	out := make([]*recall.SearchHit, 0, len(list))
	for _, c := range list {
		h := &recall.SearchHit{Memory: c.m, Score: c.score, Snippet: bestPassage(c.m.Content, terms, c.snippet)}
		if q.Explain {
			h.Explain = &recall.HitExplain{BM25: c.bm25, BM25Rank: c.bm25Rank, Vector: c.vector, VectorRank: c.vectorRank,
				Fused: c.fused, Adjustments: c.adjust, Note: note}
		}
		out = append(out, h)
	}
	return out, nil
}

// vectorCandidates adds the memories of the nearest passages to cands and
// returns their ids, best first. Memories the filter excludes are dropped.
func (s *Searcher) vectorCandidates(ctx context.Context, text string, f recall.MemoryFilter, k int, cands map[string]*candidate) ([]string, error) {
	if s.Vectors == nil {
		return nil, recall.Errorf(recall.EUNAVAILABLE, "No embedder is configured: set [retrieval] embedder in config.toml, then run `recall reindex`.")
	}
	hits, err := s.Vectors.SearchVectors(ctx, text, k)
	if err != nil {
		return nil, err
	}
	// A memory's best passage speaks for it.
	var ids []string
	best := map[string]recall.VectorHit{}
	for _, h := range hits {
		if _, ok := best[h.MemoryID]; !ok {
			ids = append(ids, h.MemoryID)
			best[h.MemoryID] = h
		}
	}
	var missing []string
	for _, id := range ids {
		if cands[id] == nil {
			missing = append(missing, id)
		}
	}
	loaded := map[string]*recall.Memory{}
	if len(missing) > 0 {
		f.IDs, f.Offset, f.Limit = missing, 0, len(missing)
		ms, _, err := s.Memories.FindMemories(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("load vector candidates: %w", err)
		}
		for _, m := range ms {
			loaded[m.ID] = m
		}
	}
	var out []string
	for _, id := range ids {
		c := cands[id]
		if c == nil {
			m := loaded[id]
			if m == nil {
				continue // filtered out
			}
			c = &candidate{m: m}
			cands[id] = c
		}
		out = append(out, id)
		c.vector, c.vectorRank = best[id].Score, len(out)
	}
	return out, nil
}

// fuse combines the text and vector lists into one score per candidate.
func (s *Searcher) fuse(o Options, cands map[string]*candidate, textIDs, vecIDs []string) map[string]float64 {
	if o.Fusion != "score" {
		return rank.RRF(o.RRFK, rank.List{IDs: textIDs, Weight: o.TextWeight}, rank.List{IDs: vecIDs, Weight: o.VectorWeight})
	}
	bm, vec := map[string]float64{}, map[string]float64{}
	for id, c := range cands {
		bm[id], vec[id] = c.bm25, c.vector
	}
	bm, vec = rank.Normalize(bm), rank.Normalize(vec)
	out := map[string]float64{}
	for id := range cands {
		out[id] = o.TextWeight*bm[id] + o.VectorWeight*vec[id]
	}
	return out
}
