package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/sqlite"
)

// rankingStore is a store with the built-in embedder and a generated
// corpus: filler notes over a vocabulary of made-up words, and the
// memories the tests look for.
type rankingStore struct {
	mem    *sqlite.MemoryService
	search recall.Searcher
	ids    map[string]string // name -> id
}

var rankingNow = time.Date(2026, 3, 18, 12, 0, 0, 0, time.UTC) // a Wednesday

// openSearchStore opens a store in a temporary directory whose clock
// says now, with the built-in embedder embedding inline; its integrity is
// checked when the test ends.
func openSearchStore(t *testing.T, now time.Time) (*sqlite.MemoryService, *sqlite.VectorService) {
	t.Helper()
	db := sqlite.NewDB(filepath.Join(t.TempDir(), dbFile))
	db.Now = func() time.Time { return now }
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(context.Background()); err != nil {
			t.Error(err)
		}
		db.Close()
	})
	vec := sqlite.NewVectorService(db, hashing.NewHashing(0), chunk.Splitter{})
	vec.Inline = true
	return sqlite.NewMemoryService(db), vec
}

func newRankingStore(t *testing.T) *rankingStore {
	t.Helper()
	mem, vec := openSearchStore(t, rankingNow)
	rs := &rankingStore{mem: mem, ids: map[string]string{}}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	syll := []string{"ka", "lo", "mi", "ne", "su", "ta", "ri", "vo", "pe", "zu"}
	var ms []*recall.Memory
	for i := 0; i < 300; i++ {
		var words []string
		for w := 0; w < 8+rng.IntN(10); w++ {
			words = append(words, syll[rng.IntN(10)]+syll[rng.IntN(10)]+syll[rng.IntN(10)])
		}
		ms = append(ms, &recall.Memory{Content: strings.Join(words, " ") + ".", Type: "note",
			OccurredAt: rankingNow.AddDate(0, 0, -rng.IntN(700))})
	}
	if _, err := mem.ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	put := func(name string, m *recall.Memory) {
		t.Helper()
		if m.OccurredAt.IsZero() {
			m.OccurredAt = rankingNow.AddDate(0, -2, 0)
		}
		res, err := mem.PutMemory(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		rs.ids[name] = res.Memory.ID
	}
	put("port", &recall.Memory{Title: "Billing service", Content: "The billing service listens on port 8443 behind the gateway."})
	put("incident-old", &recall.Memory{Content: "Deploy incident: the canary failed and we rolled back.", OccurredAt: rankingNow.AddDate(-1, 0, 0)})
	put("incident-new", &recall.Memory{Content: "Deploy incident: the canary failed on the new cluster.", OccurredAt: time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)})
	// A conversation: the answer shares no word with the question.
	at := time.Date(2026, 2, 1, 18, 0, 0, 0, time.UTC)
	put("q", &recall.Memory{Type: "dialog", Content: "Ana: Where did you end up moving after the lease ran out?", OccurredAt: at})
	put("a", &recall.Memory{Type: "dialog", Content: "Ben: Lisbon! A flat near the river.", OccurredAt: at})
	for i := 0; i < 3; i++ {
		put(fmt.Sprintf("dup%d", i), &recall.Memory{Content: "Use the staging cluster for every load test run.", Collection: "ops"})
	}
	put("distinct", &recall.Memory{Content: "Load test results go to the staging dashboard.", Collection: "ops"})
	put("old-rule", &recall.Memory{Content: "Tabs are four spaces wide in the editor.", Status: recall.StatusSuperseded})
	put("new-rule", &recall.Memory{Content: "Tabs are two spaces wide in the editor."})
	a := newApp(nil, nil, nil)
	rs.search, _ = a.eng.SearcherFor(mem, vec, mem, defaultConfig())
	return rs
}

func (rs *rankingStore) rankOf(t *testing.T, q recall.SearchQuery, name string) int {
	t.Helper()
	if q.Now.IsZero() {
		q.Now = rankingNow
	}
	hits, err := rs.search.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hits {
		if h.Memory.ID == rs.ids[name] {
			return i + 1
		}
	}
	return 0
}

// TestSearcher_KnownAnswers runs the wired hybrid searcher over a real
// store and checks where the known answers rank.
func TestSearcher_KnownAnswers(t *testing.T) {
	rs := newRankingStore(t)
	t.Run("Fact", func(t *testing.T) {
		if r := rs.rankOf(t, recall.SearchQuery{Text: "What port does the billing service listen on?"}, "port"); r != 1 {
			t.Fatalf("rank %d, want 1", r)
		}
	})
	t.Run("TimeWords", func(t *testing.T) {
		q := recall.SearchQuery{Text: "deploy incident last week"}
		if r := rs.rankOf(t, q, "incident-new"); r != 1 {
			t.Fatalf("last week's incident ranks %d, want 1", r)
		}
		q = recall.SearchQuery{Text: "deploy incident a year ago"}
		if r := rs.rankOf(t, q, "incident-old"); r != 1 {
			t.Fatalf("last year's incident ranks %d, want 1", r)
		}
	})
	t.Run("SinceUntilFilter", func(t *testing.T) {
		since := rankingNow.AddDate(0, 0, -30)
		q := recall.SearchQuery{Text: "deploy incident", Filter: recall.MemoryFilter{Since: &since}}
		if r := rs.rankOf(t, q, "incident-old"); r != 0 {
			t.Fatalf("filtered-out memory ranks %d", r)
		}
	})
	t.Run("NeighbourAnswer", func(t *testing.T) {
		if r := rs.rankOf(t, recall.SearchQuery{Text: "Where did Ben move after the lease?"}, "a"); r == 0 || r > 3 {
			t.Fatalf("answer turn ranks %d, want top 3", r)
		}
	})
	t.Run("NearDuplicates", func(t *testing.T) {
		col := "ops"
		q := recall.SearchQuery{Text: "staging load test", Limit: 2, Filter: recall.MemoryFilter{Collection: &col}}
		if r := rs.rankOf(t, q, "distinct"); r == 0 {
			t.Fatal("near-duplicates crowded out the distinct memory")
		}
	})
	t.Run("StatusExcluded", func(t *testing.T) {
		q := recall.SearchQuery{Text: "tabs spaces editor"}
		if r := rs.rankOf(t, q, "old-rule"); r != 0 {
			t.Fatalf("superseded memory ranks %d", r)
		}
		any := "any"
		q.Filter.Status = &any
		if r := rs.rankOf(t, q, "old-rule"); r == 0 {
			t.Fatal("superseded memory missing when asked for")
		}
		if rs.rankOf(t, q, "new-rule") > rs.rankOf(t, q, "old-rule") {
			t.Fatal("superseded memory outranks the active one")
		}
	})
	t.Run("Modes", func(t *testing.T) {
		for _, mode := range []string{recall.ModeBM25, recall.ModeVector, recall.ModeHybrid} {
			if r := rs.rankOf(t, recall.SearchQuery{Text: "billing service port", Mode: mode}, "port"); r != 1 {
				t.Errorf("%s: rank %d, want 1", mode, r)
			}
		}
	})
	t.Run("AsOf", func(t *testing.T) {
		before := rankingNow.AddDate(-5, 0, 0)
		if r := rs.rankOf(t, recall.SearchQuery{Text: "billing service port", AsOf: &before}, "port"); r != 0 {
			t.Fatalf("memory written later found as of %v", before)
		}
		after := rankingNow.AddDate(0, 0, 1)
		if r := rs.rankOf(t, recall.SearchQuery{Text: "billing service port", AsOf: &after}, "port"); r != 1 {
			t.Fatalf("as of now: rank %d", r)
		}
	})
	t.Run("Explain", func(t *testing.T) {
		hits, err := rs.search.Search(context.Background(), recall.SearchQuery{Text: "deploy incident in March 2026", Explain: true, Now: rankingNow})
		if err != nil {
			t.Fatal(err)
		}
		e := hits[0].Explain
		if e == nil || e.BM25Rank == 0 || e.Fused == 0 || e.Adjustments["time_window"] == 0 || !strings.Contains(e.Note, "March 2026") {
			t.Fatalf("explain: %+v", e)
		}
	})
}
