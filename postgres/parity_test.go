package postgres_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/internal/synth"
	"github.com/recall-mem/recall/postgres"
	"github.com/recall-mem/recall/sqlite"
)

// TestSearchMatchesSQLite loads one synthetic corpus (the scale
// benchmark's: Zipf words, questions holding a few words of one target
// memory and some common ones) into both stores and asks both the same
// questions, through the store's full-text search and through the ranked
// searcher in each mode. The two must find the targets as often, and
// mostly return the same memories: the ranking is the same design on
// both. (Full text weighing a title match ten times a content match,
// unlike FTS5's BM25, found a fifth of the targets SQLite found.)
func TestSearchMatchesSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 3,000 memories into two stores")
	}
	const n, queries = 3000, 80
	ctx := context.Background()
	opts := recall.StoreOptions{Embedding: &recall.EmbeddingOptions{Embedder: hashing.NewHashing(256), Chunker: chunk.Splitter{}, Inline: true}}
	dbURL := pgtest.NewDatabase(t)
	pg, err := postgres.OpenStore(ctx, dbURL, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	sq, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "recall.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer sq.Close()
	corpus := synth.New(1, synth.DefaultVocab)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, st := range []recall.Store{sq, pg} {
		for lo := 0; lo < n; lo += 1000 {
			var ms []*recall.Memory
			for i := lo; i < min(lo+1000, n); i++ {
				title, content := corpus.Memory(i)
				ms = append(ms, &recall.Memory{ID: synthID(i), Title: title, Content: content,
					OccurredAt: base.Add(time.Duration(i) * 10 * time.Minute), Tags: []string{fmt.Sprintf("t%d", i%50)}})
			}
			if _, err := st.Memories().ImportMemories(ctx, ms); err != nil {
				t.Fatal(err)
			}
		}
	}
	// As autovacuum would: the planner's statistics then tell which
	// words are common (see planTerms).
	execSQL(t, dbURL, "ANALYZE memories")
	now := base.Add(n * 10 * time.Minute)
	cfg := engine.DefaultConfig()
	var eng engine.Engine
	rankSQ, _ := eng.SearcherFor(sq.Memories(), sq.Vectors(), nil, cfg)
	rankPG, _ := eng.SearcherFor(pg.Memories(), pg.Vectors(), nil, cfg)
	type tally struct{ sqlite, postgres, same int }
	got := map[string]*tally{}
	count := func(name string, a, b []*recall.SearchHit, want string) {
		c := got[name]
		if c == nil {
			c = &tally{}
			got[name] = c
		}
		ids := map[string]bool{}
		for _, h := range a {
			ids[h.Memory.ID] = true
			if h.Memory.ID == want {
				c.sqlite++
			}
		}
		for _, h := range b {
			c.same += btoi(ids[h.Memory.ID])
			if h.Memory.ID == want {
				c.postgres++
			}
		}
	}
	for q := range queries {
		text, target := corpus.Query(q, n)
		want := synthID(target)
		a, err := sq.Memories().Search(ctx, recall.SearchQuery{Text: text, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		b, err := pg.Memories().Search(ctx, recall.SearchQuery{Text: text, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		count("store full text", a, b, want)
		for _, mode := range []string{recall.ModeBM25, recall.ModeVector, recall.ModeHybrid} {
			a, err := rankSQ.Search(ctx, recall.SearchQuery{Text: text, Limit: 10, Mode: mode, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			b, err := rankPG.Search(ctx, recall.SearchQuery{Text: text, Limit: 10, Mode: mode, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			count(mode, a, b, want)
		}
	}
	for name, c := range got {
		sqAt, pgAt, same := float64(c.sqlite)/queries, float64(c.postgres)/queries, float64(c.same)/(queries*10)
		t.Logf("%-15s target@10 SQLite %.3f PostgreSQL %.3f; top 10 shared %.2f", name, sqAt, pgAt, same)
		if pgAt < sqAt-0.05 || same < 0.7 {
			t.Errorf("%s: target@10 %.3f on PostgreSQL against %.3f on SQLite, %.2f of the top 10 shared; want within 0.05 and at least 0.7",
				name, pgAt, sqAt, same)
		}
	}
}

func synthID(i int) string { return fmt.Sprintf("tr%010x", i+1) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
