package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
)

// synthetic returns n memories of 40 words drawn from a Zipf vocabulary,
// so that some words are common and most are rare, as in real text.
func synthetic(rng *rand.Rand, first, n int) []*recall.Memory {
	z := rand.NewZipf(rng, 1.1, 2, 20000)
	out := make([]*recall.Memory, n)
	for i := range out {
		words := make([]string, 40)
		for j := range words {
			words[j] = fmt.Sprintf("w%d", z.Uint64())
		}
		out[i] = &recall.Memory{ID: fmt.Sprintf("tr%010x", first+i+1), Title: strings.Join(words[:4], " "), Content: strings.Join(words, " ")}
	}
	return out
}

// BenchmarkImportMemories imports batches of 1,000 memories: memories/s
// is the batched-ingest figure.
func BenchmarkImportMemories(b *testing.B) {
	ctx := context.Background()
	db, err := postgres.Open(ctx, pgtest.NewDatabase(b))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s := postgres.NewMemoryService(db)
	rng := rand.New(rand.NewPCG(1, 2))
	const batch = 1000
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		ms := synthetic(rng, i*batch, batch)
		b.StartTimer()
		if _, err := s.ImportMemories(ctx, ms); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "memories/s")
}

// BenchmarkSearch ranks 10,000 memories for three-word queries and
// reports the latency percentiles.
func BenchmarkSearch(b *testing.B) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(b)
	db, err := postgres.Open(ctx, dbURL)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s := postgres.NewMemoryService(db)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 10000; i += 1000 {
		if _, err := s.ImportMemories(ctx, synthetic(rng, i, 1000)); err != nil {
			b.Fatal(err)
		}
	}
	// A store in use has been analyzed by autovacuum; a fresh one not yet.
	execSQL(b, dbURL, "ANALYZE memories")
	queries := synthetic(rng, 0, 200)
	var took []time.Duration
	b.ResetTimer()
	for i := range b.N {
		q := strings.Join(strings.Fields(queries[i%len(queries)].Content)[:3], " ")
		start := time.Now()
		if _, err := s.Search(ctx, recall.SearchQuery{Text: q, Limit: 10}); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}
