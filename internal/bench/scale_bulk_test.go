package bench_test

import (
	"context"
	"os"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/bench"
)

// phaseMemories notes, for each batched import and single put, whether
// the bulk settings were on.
type phaseMemories struct {
	recall.MemoryStore
	bulk                  *bool
	batches, singles      int
	batchesOff, singlesOn int
}

func (p *phaseMemories) ImportMemories(ctx context.Context, ms []*recall.Memory) (*recall.ImportResult, error) {
	p.batches++
	if !*p.bulk {
		p.batchesOff++
	}
	return p.MemoryStore.ImportMemories(ctx, ms)
}

func (p *phaseMemories) PutMemory(ctx context.Context, m *recall.Memory) (*recall.PutResult, error) {
	p.singles++
	if *p.bulk {
		p.singlesOn++
	}
	return p.MemoryStore.PutMemory(ctx, m)
}

// TestScale_BulkAroundBatches: Scale.Bulk is on for every batched write
// and for nothing after them (the single puts, the searches), once.
func TestScale_BulkAroundBatches(t *testing.T) {
	var bulk bool
	calls, searchesOn, searches := 0, 0, 0
	var mem *phaseMemories
	open := func(ctx context.Context, dir, embedder string) (*bench.Store, error) {
		b, err := hashingStore(ctx, dir, embedder)
		if err == nil {
			mem = &phaseMemories{MemoryStore: b.Memories, bulk: &bulk}
			b.Memories = mem
			b.Search = bulkSearcher{b.Search, &bulk, &searches, &searchesOn}
		}
		return b, err
	}
	sc := bench.Scale{Product: bench.Product{DBFile: "recall.db", Open: open}, Memories: 2100, Queries: 3, Seed: 1, Budget: 500,
		Bulk: func() func() {
			calls++
			bulk = true
			return func() { bulk = false }
		}}
	_, dir, err := sc.Run(context.Background())
	if dir != "" {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || mem.batches != 2 || mem.batchesOff != 0 || mem.singles == 0 || mem.singlesOn != 0 || searches == 0 || searchesOn != 0 {
		t.Errorf("Bulk called %d times; %d batches, %d without it; %d single puts, %d with it; %d searches, %d with it",
			calls, mem.batches, mem.batchesOff, mem.singles, mem.singlesOn, searches, searchesOn)
	}
}

type bulkSearcher struct {
	recall.Searcher
	bulk          *bool
	n, whileBulky *int
}

func (s bulkSearcher) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	*s.n++
	if *s.bulk {
		*s.whileBulky++
	}
	return s.Searcher.Search(ctx, q)
}
