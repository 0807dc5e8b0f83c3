package sqlite_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// benchVocabulary is a small deterministic vocabulary; words are drawn with
// a Zipf distribution so some terms are frequent and most are rare.
func benchText(r *rand.Rand, z *rand.Zipf, words int) string {
	var b strings.Builder
	for i := 0; i < words; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "w%d", z.Uint64())
	}
	return b.String()
}

// seedStore fills a store with n memories in batches of 1,000.
func seedStore(b *testing.B, s *sqlite.MemoryService, n int) (*rand.Rand, *rand.Zipf) {
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 1, 20000)
	for done := 0; done < n; {
		batch := make([]*recall.Memory, 0, 1000)
		for i := 0; i < 1000 && done < n; i, done = i+1, done+1 {
			batch = append(batch, &recall.Memory{Title: benchText(r, z, 4), Content: benchText(r, z, 40)})
		}
		if _, err := s.ImportMemories(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
	return r, z
}

// reportPercentiles adds p50 and p95 latency metrics to a benchmark.
func reportPercentiles(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(p(0.50), "p50-µs")
	b.ReportMetric(p(0.95), "p95-µs")
}

// BenchmarkMemoryService_Put measures one put (one transaction, one version,
// FTS update) on a store of 10,000 memories.
func BenchmarkMemoryService_Put(b *testing.B) {
	s := sqlite.NewMemoryService(MustOpenDB(b))
	r, z := seedStore(b, s, 10000)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := &recall.Memory{Title: benchText(r, z, 4), Content: benchText(r, z, 40)}
		start := time.Now()
		if _, err := s.PutMemory(context.Background(), m); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	reportPercentiles(b, lat)
}

// BenchmarkMemoryService_Search measures a BM25 search of 3–6 words, top 10,
// on a store of 10,000 memories.
func BenchmarkMemoryService_Search(b *testing.B) {
	s := sqlite.NewMemoryService(MustOpenDB(b))
	r, z := seedStore(b, s, 10000)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := benchText(r, z, 3+r.IntN(4))
		start := time.Now()
		if _, err := s.Search(context.Background(), recall.SearchQuery{Text: q, Limit: 10}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	reportPercentiles(b, lat)
}
