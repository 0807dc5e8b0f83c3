package bench_test

import (
	"bytes"
	"context"
	"github.com/recall-mem/recall"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/internal/bench"
	"github.com/recall-mem/recall/sqlite"
)

// TestScale_Run measures the store the Product seam opens, through its
// services, and names the embedder that store was opened with.
func TestScale_Run(t *testing.T) {
	var opened []string
	closed := 0
	open := func(ctx context.Context, dir, embedder string) (*bench.Store, error) {
		opened = append(opened, embedder)
		b, err := hashingStore(ctx, dir, embedder)
		if err != nil {
			return nil, err
		}
		inner := b.Close
		b.Close = func() {
			closed++
			inner()
		}
		return b, nil
	}
	sc := bench.Scale{Product: bench.Product{DBFile: "recall.db", Open: open}, Memories: 60, Queries: 5, Seed: 1, Budget: 500, Embedder: "hashing"}
	rep, dir, err := sc.Run(context.Background())
	if dir != "" {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(opened) != 1 || opened[0] != "hashing" {
		t.Errorf("Open calls: %q, want one with the embedder asked for", opened)
	}
	if closed == 0 {
		t.Error("the store was never closed")
	}
	if rep.Memories != 60 || rep.SingleSample != 3 || rep.IngestPerS.Batched <= 0 || rep.IngestPerS.Single <= 0 {
		t.Errorf("ingest: %+v (single sample %d)", rep.IngestPerS, rep.SingleSample)
	}
	if rep.EmbedPerS != 0 {
		t.Errorf("embed_per_s %v with an inline embedder, want 0", rep.EmbedPerS)
	}
	if rep.ContextMS != nil || rep.ColdStartMS != nil {
		t.Errorf("context %v, cold start %v: want none without a builder or cold runs", rep.ContextMS, rep.ColdStartMS)
	}
	if rep.Config["embedder"] != hashing.NewHashing(64).Model() || rep.Config["dim"] != 64 {
		t.Errorf("config %v does not name the store's embedder", rep.Config)
	}
	if rep.BytesPerMemory <= 0 {
		t.Errorf("bytes per memory %v", rep.BytesPerMemory)
	}
	wantText(t, rep, "memories               60 (5 queries", "search hybrid", "context                not wired")
}

// hashingStore opens a store in dir embedding inline with the hashing
// embedder.
func hashingStore(_ context.Context, dir, _ string) (*bench.Store, error) {
	e := hashing.NewHashing(64)
	st, err := sqlite.OpenStore(filepath.Join(dir, "recall.db"), recall.StoreOptions{
		Embedding: &recall.EmbeddingOptions{Embedder: e, Chunker: chunk.Splitter{}, Inline: true},
	})
	if err != nil {
		return nil, err
	}
	mem := sqlite.NewMemoryService(st.DB)
	return &bench.Store{Memories: mem, Vectors: st.Vectors(), Search: mem, Embedder: e, Close: func() { st.Close() }}, nil
}

// wantText checks that rep's text report has every one of wants.
func wantText(t *testing.T, rep interface{ WriteText(io.Writer) }, wants ...string) {
	t.Helper()
	var out bytes.Buffer
	rep.WriteText(&out)
	for _, want := range wants {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestTermProgress(t *testing.T) {
	var out bytes.Buffer
	p := bench.TermProgress(&out)
	p("ingest", 3, 10)
	p("", 0, 0)
	if got, want := out.String(), "\r\033[Kingest 3/10\r\033[K"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// countingSearcher counts the searches run through it.
type countingSearcher struct {
	recall.Searcher
	n *int
}

func (c countingSearcher) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	*c.n++
	return c.Searcher.Search(ctx, q)
}

// TestScale_IngestOnly stops after the writes: the rates and the store's
// size are reported, and nothing is searched.
func TestScale_IngestOnly(t *testing.T) {
	searches := 0
	open := func(ctx context.Context, dir, embedder string) (*bench.Store, error) {
		b, err := hashingStore(ctx, dir, embedder)
		if err == nil {
			b.Search = countingSearcher{b.Search, &searches}
		}
		return b, err
	}
	sc := bench.Scale{Product: bench.Product{DBFile: "recall.db", Open: open}, Memories: 60, Queries: 5, Seed: 1, Budget: 500, IngestOnly: true}
	rep, dir, err := sc.Run(context.Background())
	if dir != "" {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	if rep.IngestPerS.Batched <= 0 || rep.IngestPerS.Single <= 0 || rep.BytesPerMemory <= 0 || rep.PeakRSSBytes <= 0 {
		t.Errorf("report %+v lacks the ingest figures", rep)
	}
	if runtime.GOOS == "linux" && (rep.IngestPerS.BatchedCPUUS <= 0 || rep.IngestPerS.SingleCPUUS <= 0) {
		t.Errorf("report %+v lacks the ingest figures", rep)
	}
	if searches != 0 || rep.SearchHybridMS.P50 != 0 || rep.VectorIndexMS != 0 {
		t.Errorf("%d searches (hybrid p50 %v, index %v ms) after the writes, want none", searches, rep.SearchHybridMS.P50, rep.VectorIndexMS)
	}
}
