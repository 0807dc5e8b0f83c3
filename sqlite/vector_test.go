package sqlite_test

import (
	"context"
	"hash/fnv"
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// wordEmbedder is a small deterministic embedder for tests: each word adds
// one to a hashed component. It can be told to fail like a provider that
// is down.
type wordEmbedder struct {
	model string
	dim   int
	down  atomic.Bool
	calls atomic.Int64
}

func newWordEmbedder(model string) *wordEmbedder { return &wordEmbedder{model: model, dim: 32} }

func (e *wordEmbedder) Model() string { return e.model }
func (e *wordEmbedder) Dim() int      { return e.dim }
func (e *wordEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.calls.Add(1)
	if e.down.Load() {
		return nil, recall.Errorf(recall.EUNAVAILABLE, "The embedding provider cannot be reached.")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, e.dim)
		for _, w := range strings.Fields(strings.ToLower(t)) {
			h := fnv.New32a()
			h.Write([]byte(strings.Trim(w, ".,?!")))
			v[h.Sum32()%uint32(e.dim)]++
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		for j := range v {
			if n > 0 {
				v[j] /= float32(math.Sqrt(n))
			}
		}
		out[i] = v
	}
	return out, nil
}

// paragraphChunker splits at blank lines.
type paragraphChunker struct{}

func (paragraphChunker) Chunk(content string) []recall.Chunk {
	var out []recall.Chunk
	start := 0
	for _, p := range strings.SplitAfter(content, "\n\n") {
		out = append(out, recall.Chunk{Index: len(out), Start: start, End: start + len(strings.TrimRight(p, "\n"))})
		start += len(p)
	}
	return out
}

// openInline opens a store whose writes are embedded inline by e.
func openInline(t *testing.T, e recall.Embedder, c recall.Chunker) (*sqlite.MemoryService, *sqlite.VectorService) {
	t.Helper()
	db := MustOpenDB(t)
	vs := sqlite.NewVectorService(db, e, c)
	vs.Inline = true
	return sqlite.NewMemoryService(db), vs
}

func put(t *testing.T, mem *sqlite.MemoryService, title, content string) *recall.Memory {
	t.Helper()
	res, err := mem.PutMemory(context.Background(), &recall.Memory{Title: title, Content: content})
	if err != nil {
		t.Fatal(err)
	}
	return res.Memory
}

func topID(t *testing.T, vs *sqlite.VectorService, query string) string {
	t.Helper()
	hits, err := vs.SearchVectors(context.Background(), query, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 {
		return ""
	}
	return hits[0].MemoryID
}

func TestVectorService_SearchVectors(t *testing.T) {
	ctx := context.Background()
	t.Run("InlineAfterWrite", func(t *testing.T) {
		mem, vs := openInline(t, newWordEmbedder("w1"), nil)
		kafka := put(t, mem, "Kafka", "consumer lag alert fires after five minutes")
		put(t, mem, "Cat", "my cat likes warm milk")
		if got := topID(t, vs, "kafka consumer lag"); got != kafka.ID {
			t.Fatalf("top = %s, want %s", got, kafka.ID)
		}
		st, err := vs.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Queued != 0 || st.Embedded != 2 || st.StoredModel != "w1" {
			t.Fatalf("stats = %+v", st)
		}
	})
	t.Run("ImportEmbedsAll", func(t *testing.T) {
		mem, vs := openInline(t, newWordEmbedder("w1"), nil)
		var ms []*recall.Memory
		for _, c := range []string{"one two", "three four", "five six", "seven eight"} {
			ms = append(ms, &recall.Memory{Content: c})
		}
		if _, err := mem.ImportMemories(ctx, ms); err != nil {
			t.Fatal(err)
		}
		st, _ := vs.Stats(ctx)
		if st.Embedded != 4 || st.Queued != 0 {
			t.Fatalf("stats = %+v", st)
		}
	})
	t.Run("BestPassage", func(t *testing.T) {
		mem, vs := openInline(t, newWordEmbedder("w1"), paragraphChunker{})
		content := "intro about nothing much\n\nthe deploy runbook needs a rollback step\n\nclosing words here"
		m := put(t, mem, "Guide", content)
		hits, err := vs.SearchVectors(ctx, "rollback step runbook", 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 || hits[0].MemoryID != m.ID {
			t.Fatalf("want one hit per memory, got %+v", hits)
		}
		h := hits[0]
		if got := content[h.Start:h.End]; h.Chunk != 1 || got != "the deploy runbook needs a rollback step" {
			t.Fatalf("chunk %d passage %q", h.Chunk, got)
		}
	})
	t.Run("NoEmbedder", func(t *testing.T) {
		db := MustOpenDB(t)
		vs := sqlite.NewVectorService(db, nil, nil)
		_, err := vs.SearchVectors(ctx, "x", 3)
		if recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("err = %v", err)
		}
	})
}

// Writes are seen by the next search, whether it runs on the writer's
// handle or on another handle of the same file (another process), without
// reopening: puts, updates, deletes and restores.
func TestVectorService_StaysInStep(t *testing.T) {
	open := func(path string) (*sqlite.MemoryService, *sqlite.VectorService) {
		db := sqlite.NewDB(path)
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		vs := sqlite.NewVectorService(db, newWordEmbedder("w1"), nil)
		vs.Inline = true
		return sqlite.NewMemoryService(db), vs
	}
	t.Run("SameHandle", func(t *testing.T) {
		mem, vs := open(filepath.Join(t.TempDir(), "recall.db"))
		stayInStep(t, mem, vs)
	})
	t.Run("AcrossHandles", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "recall.db")
		memA, _ := open(path)
		_, vsB := open(path)
		stayInStep(t, memA, vsB)
	})
}

// stayInStep writes through mem and searches through vs.
func stayInStep(t *testing.T, mem *sqlite.MemoryService, vs *sqlite.VectorService) {
	ctx := context.Background()
	a := put(t, mem, "", "alpha bravo charlie")
	if got := topID(t, vs, "alpha bravo"); got != a.ID {
		t.Fatalf("put not seen: %q", got)
	}
	b := put(t, mem, "", "delta echo foxtrot")
	if got := topID(t, vs, "delta echo"); got != b.ID {
		t.Fatalf("second put not seen: %q", got)
	}
	content := "kilo lima mike"
	if _, err := mem.UpdateMemory(ctx, a.ID, recall.MemoryUpdate{Content: &content}); err != nil {
		t.Fatal(err)
	}
	hits, _ := vs.SearchVectors(ctx, "kilo lima", 5)
	if len(hits) != 2 || hits[0].MemoryID != a.ID || hits[0].Score < 0.8 {
		t.Fatalf("after update: %+v", hits)
	}
	if err := mem.DeleteMemory(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	hits, _ = vs.SearchVectors(ctx, "delta echo", 5)
	if len(hits) != 1 || hits[0].MemoryID != a.ID {
		t.Fatalf("after delete: %+v", hits)
	}
	if _, err := mem.RestoreMemory(ctx, b.ID, 1); err != nil {
		t.Fatal(err)
	}
	if got := topID(t, vs, "delta echo"); got != b.ID {
		t.Fatalf("after restore: top = %q", got)
	}
}

func TestVectorService_DrainQueue(t *testing.T) {
	ctx := context.Background()
	t.Run("ProviderRecovers", func(t *testing.T) {
		db := MustOpenDB(t)
		mem := sqlite.NewMemoryService(db)
		e := newWordEmbedder("remote")
		vs := sqlite.NewVectorService(db, e, nil) // not inline: a remote provider
		e.down.Store(true)
		var ids []string
		for _, c := range []string{"red apple", "green pear", "blue plum"} {
			ids = append(ids, put(t, mem, "", c).ID) // writes never fail
		}
		if err := vs.DrainQueue(ctx, 0); recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("drain with provider down: %v", err)
		}
		st, _ := vs.Stats(ctx)
		if st.Queued != 3 || st.Failing != 3 || st.LastError == "" {
			t.Fatalf("stats while down = %+v", st)
		}
		e.down.Store(false)
		if err := vs.DrainQueue(ctx, 0); err != nil {
			t.Fatal(err)
		}
		st, _ = vs.Stats(ctx)
		if st.Queued != 0 || st.Embedded != 3 {
			t.Fatalf("stats after recovery = %+v", st)
		}
		if got := topID(t, vs, "green pear"); got != ids[1] {
			t.Fatalf("top = %s, want %s", got, ids[1])
		}
	})
	t.Run("SearchDrainsOpportunistically", func(t *testing.T) {
		db := MustOpenDB(t)
		mem := sqlite.NewMemoryService(db)
		vs := sqlite.NewVectorService(db, newWordEmbedder("remote"), nil)
		m := put(t, mem, "", "quiet lake morning")
		if got := topID(t, vs, "quiet lake"); got != m.ID {
			t.Fatalf("top = %q", got)
		}
	})
	t.Run("RunIntervalZeroReturns", func(t *testing.T) {
		db := MustOpenDB(t)
		vs := sqlite.NewVectorService(db, newWordEmbedder("w"), nil)
		vs.Run(ctx) // returns at once
	})
}

func TestVectorService_Reindex(t *testing.T) {
	ctx := context.Background()
	t.Run("ModelChanged", func(t *testing.T) {
		db := MustOpenDB(t)
		mem := sqlite.NewMemoryService(db)
		old := sqlite.NewVectorService(db, newWordEmbedder("old-model"), nil)
		old.Inline = true
		m := put(t, mem, "", "north star navigation")
		put(t, mem, "", "south wind sailing")

		vs := sqlite.NewVectorService(db, newWordEmbedder("new-model"), nil)
		vs.Inline = true
		_, err := vs.SearchVectors(ctx, "north star", 3)
		if got, want := recall.ErrorMessage(err), "Embedding model changed from old-model to new-model: run `recall reindex`."; got != want {
			t.Fatalf("message = %q, want %q", got, want)
		}
		if recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("code = %q", recall.ErrorCode(err))
		}
		// A write meanwhile still succeeds and is embedded by the reindex.
		w := put(t, mem, "", "east river rowing")
		var calls int
		res, err := vs.Reindex(ctx, sqlite.ReindexOptions{Progress: func(done, total int) { calls++ }})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 3 || res.Embedded != 3 || calls < 2 {
			t.Fatalf("reindex = %+v, progress calls %d", res, calls)
		}
		if got := topID(t, vs, "north star"); got != m.ID {
			t.Fatalf("top = %s", got)
		}
		if got := topID(t, vs, "east river"); got != w.ID {
			t.Fatalf("top = %s", got)
		}
	})
	t.Run("NothingStale", func(t *testing.T) {
		e := newWordEmbedder("w")
		mem, vs := openInline(t, e, nil)
		put(t, mem, "", "one")
		res, err := vs.Reindex(ctx, sqlite.ReindexOptions{})
		if err != nil || res.Total != 0 {
			t.Fatalf("reindex = %+v, %v", res, err)
		}
		before := e.calls.Load()
		res, err = vs.Reindex(ctx, sqlite.ReindexOptions{All: true})
		if err != nil || res.Total != 1 || res.Embedded != 1 || e.calls.Load() == before {
			t.Fatalf("reindex --all = %+v, %v", res, err)
		}
	})
	t.Run("UnchangedTextKeepsVectors", func(t *testing.T) {
		e := newWordEmbedder("w")
		mem, vs := openInline(t, e, nil)
		m := put(t, mem, "", "one two")
		before := e.calls.Load()
		tier := recall.TierWorking
		if _, err := mem.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Tier: &tier}); err != nil {
			t.Fatal(err)
		}
		st, _ := vs.Stats(ctx)
		if e.calls.Load() != before || st.Embedded != 1 || st.Queued != 0 {
			t.Fatalf("calls %d→%d, stats %+v", before, e.calls.Load(), st)
		}
	})
}

// slowEmbedder answers queries only after the caller gives up.
type slowEmbedder struct{ *wordEmbedder }

func (e slowEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	<-ctx.Done()
	return nil, recall.Errorf(recall.EUNAVAILABLE, "The embedding provider cannot be reached.")
}

func TestVectorService_QueryTimeout(t *testing.T) {
	db := MustOpenDB(t)
	vs := sqlite.NewVectorService(db, slowEmbedder{newWordEmbedder("remote")}, nil)
	vs.QueryTimeout = 20 * time.Millisecond
	_, err := vs.SearchVectors(context.Background(), "anything", 3)
	if recall.ErrorCode(err) != recall.EUNAVAILABLE || !strings.Contains(recall.ErrorMessage(err), "did not answer within 20ms") {
		t.Fatalf("err = %v", err)
	}
}

// Every search of a store with a queued embedder first looks at the
// queue: that look must cost the queue's size, not the store's. SQLite
// chose to scan all memories and probe the queue for each, which made an
// empty queue cost milliseconds per search at 100,000 memories.
func TestQueueLoadDoesNotScanMemories(t *testing.T) {
	db := MustOpenDB(t)
	plan, err := db.QueuedPlan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range plan {
		if strings.HasPrefix(step, "SCAN m") {
			t.Fatalf("loading the queue scans every memory: plan %q", plan)
		}
	}
	if len(plan) == 0 || !strings.Contains(plan[0], " q") {
		t.Fatalf("loading the queue does not start from the queue: plan %q", plan)
	}
}
