package recall

import (
	"context"
	"math"
)

// Normalize scales v to unit length in place, so that a dot product of
// two vectors is their cosine similarity; a zero vector stays zero. Every
// Embedder returns normalised vectors.
func Normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}

// Dot is the inner product of two vectors of equal length (the cosine of
// two normalised ones), with four accumulators so that the additions do
// not wait on each other.
func Dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// VectorHit is a passage of a memory near a query.
type VectorHit struct {
	MemoryID string  `json:"memory_id"`
	Chunk    int     `json:"chunk"` // index of the passage within the memory
	Score    float64 `json:"score"` // cosine similarity
	// Start and End are the passage's byte offsets in the content of the
	// memory version that was embedded, for showing the passage.
	Start int `json:"start"`
	End   int `json:"end"`
	// Row is where the store keeps the memory, when it knows (SQLite: the
	// memories table's rowid), so that loading it needs no lookup by id;
	// zero otherwise. A hint only: by the time it is read the row may hold
	// another memory or none. Not part of any answer.
	Row int64 `json:"-"`
}

// VectorSearcher finds the memory passages nearest to a query text.
// Returns EUNAVAILABLE when no embedder is configured or it cannot be
// reached; callers then fall back to full-text search.
type VectorSearcher interface {
	SearchVectors(ctx context.Context, text string, k int) ([]VectorHit, error)
}
