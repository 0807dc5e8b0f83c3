package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
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

// BenchmarkMemoryService_SearchStore measures BM25 searches on an existing
// store (RECALL_BENCH_STORE names its recall.db, e.g. one `recall bench
// scale --keep` left), with queries of 3–8 words drawn from its memories,
// so that figures before and after a change come from the same data.
func BenchmarkMemoryService_SearchStore(b *testing.B) {
	path := os.Getenv("RECALL_BENCH_STORE")
	if path == "" {
		b.Skip("RECALL_BENCH_STORE is not set")
	}
	db := sqlite.NewDB(path)
	if err := db.Open(); err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s := sqlite.NewMemoryService(db)
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	words, err := sampleWords(raw)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	qs := make([]string, 200)
	for i := range qs {
		q := make([]string, 3+r.IntN(6))
		for j := range q {
			q[j] = words[r.IntN(len(words))]
		}
		qs[i] = strings.Join(q, " ")
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := s.Search(context.Background(), recall.SearchQuery{Text: qs[i%len(qs)], Limit: 10}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	reportPercentiles(b, lat)
}

// sampleWords returns the words of a few hundred memories spread over a store.
func sampleWords(db *sql.DB) ([]string, error) {
	rows, err := db.Query(`SELECT content FROM memories WHERE seq % 97 = 0 LIMIT 400`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var words []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		words = append(words, strings.Fields(c)...)
	}
	return words, rows.Err()
}
