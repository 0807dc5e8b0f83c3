package recall

import (
	"context"
	"time"
)

// Search modes.
const (
	ModeHybrid = "hybrid"
	ModeBM25   = "bm25"
	ModeVector = "vector"
)

// SearchQuery asks for the memories that best answer Text.
type SearchQuery struct {
	Text    string
	Filter  MemoryFilter
	Limit   int
	Mode    string     // hybrid (default), bm25 or vector
	Now     time.Time  // the reference time for relative expressions; zero means the store clock
	AsOf    *time.Time // answer from memory as it was at that time
	Explain bool       // fill SearchHit.Explain
}

// SearchHit is one ranked result.
type SearchHit struct {
	Memory  *Memory     `json:"memory"`
	Score   float64     `json:"score"`
	Snippet string      `json:"snippet,omitempty"` // the best passage of a long memory
	Explain *HitExplain `json:"explain,omitempty"`
	Rollup  *Rollup     `json:"rollup,omitempty"` // set when the hit is a rollup; Memory is then a read-only view of it
	// Context holds memories recorded beside the hit (the turns around a
	// matching turn) that matched nothing themselves: they are shown under
	// the hit, never as hits, and count toward the query's Limit.
	Context []*SearchHit `json:"context,omitempty"`
}

// Shown is the number of memories hits take on screen and in Limit: each
// hit and its context.
func Shown(hits []*SearchHit) int {
	n := 0
	for _, h := range hits {
		n += 1 + len(h.Context)
	}
	return n
}

// HitExplain shows how a hit was scored.
type HitExplain struct {
	BM25       float64 `json:"bm25"`
	BM25Rank   int     `json:"bm25_rank,omitempty"`
	Vector     float64 `json:"vector"`
	VectorRank int     `json:"vector_rank,omitempty"`
	Fused      float64 `json:"fused"`
	// Adjustments are factors applied to Fused (recency, tier, …); names
	// starting with "+" are shares already added into Fused (context from
	// neighbouring memories), names starting with "-" are amounts taken
	// from the final score (a near-duplicate of a hit shown above).
	Adjustments map[string]float64 `json:"adjustments,omitempty"`
	Note        string             `json:"note,omitempty"` // e.g. that vector search was unavailable
	// Sources, for a rollup hit, are its direct sources as "kind:id"
	// (memory, observation or rollup), so the entries it summarises are
	// one `recall get` away.
	Sources []string `json:"sources,omitempty"`
}

// Searcher ranks memories for a query. Returns EINVALID for a malformed
// query or filter.
type Searcher interface {
	Search(ctx context.Context, q SearchQuery) ([]*SearchHit, error)
}
