package sqlite_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/sqlite"
)

// BenchmarkMemoryService_Import measures batched ingest: one transaction
// per 1,000 memories, with versions and the full-text index, no embedder.
func BenchmarkMemoryService_Import(b *testing.B) {
	benchImport(b, MustOpenDB(b))
}

// BenchmarkMemoryService_ImportEmbedded is batched ingest with the built-in
// embedder embedding every memory after its batch commits.
func BenchmarkMemoryService_ImportEmbedded(b *testing.B) {
	db := MustOpenDB(b)
	vs := sqlite.NewVectorService(db, hashing.NewHashing(384), chunk.Splitter{})
	vs.Inline = true
	benchImport(b, db)
}

func benchImport(b *testing.B, db *sqlite.DB) {
	s := sqlite.NewMemoryService(db)
	r, z := seedStore(b, s, 0)
	batch := make([]*recall.Memory, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range batch {
			batch[j] = &recall.Memory{Title: benchText(r, z, 4), Content: benchText(r, z, 40)}
		}
		if _, err := s.ImportMemories(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "memories/s")
}
