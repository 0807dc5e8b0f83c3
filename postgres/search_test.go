package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
)

// TestSearch checks the query language and ranking against SQLite's:
// words are ORed, stems and accents match, operators are text, a title
// outweighs the body, and filters apply.
func TestSearch(t *testing.T) {
	ctx := context.Background()
	s := postgres.NewMemoryService(mustOpen(t, pgtest.NewDatabase(t), ""))
	put := func(m *recall.Memory) string {
		t.Helper()
		res, err := s.PutMemory(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		return res.Memory.ID
	}
	title := put(&recall.Memory{Title: "Deploying the service", Content: "Run the pipeline.", Collection: "ops"})
	body := put(&recall.Memory{Content: "Notes: after deploying, check the dashboards and the logs of the service."})
	file := put(&recall.Memory{Content: "The entry point is main.go in cmd/server.", Tags: []string{"layout"}})
	accent := put(&recall.Memory{Content: "Réunion notes from the café"})
	old := put(&recall.Memory{Content: "We deployed by hand", Status: recall.StatusSuperseded})

	search := func(q recall.SearchQuery) []string {
		t.Helper()
		hits, err := s.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range hits {
			ids = append(ids, h.Memory.ID)
			if h.Score <= 0 {
				t.Fatalf("hit %s scored %g", h.Memory.ID, h.Score)
			}
		}
		return ids
	}
	for _, c := range []struct {
		name string
		q    recall.SearchQuery
		want []string
	}{
		{"TitleOutranksBody", recall.SearchQuery{Text: "deploy"}, []string{title, body}},
		{"OrOfWords", recall.SearchQuery{Text: "dashboards layout"}, nil}, // checked as a set below
		{"PunctuationSplits", recall.SearchQuery{Text: "main"}, []string{file}},
		{"Tags", recall.SearchQuery{Text: "layout"}, []string{file}},
		{"Accents", recall.SearchQuery{Text: "reunion cafe"}, []string{accent}},
		{"OperatorsAsText", recall.SearchQuery{Text: `"main" AND -(server`}, []string{file}},
		{"StopwordsOnly", recall.SearchQuery{Text: "the"}, nil},
		{"Filter", recall.SearchQuery{Text: "deploy", Filter: recall.MemoryFilter{Collection: ptr("ops")}}, []string{title}},
		{"AnyStatus", recall.SearchQuery{Text: "by hand", Filter: recall.MemoryFilter{Status: ptr("*")}}, []string{old}},
		{"Limit", recall.SearchQuery{Text: "deploy", Limit: 1}, []string{title}},
		{"NoWords", recall.SearchQuery{Text: "?!"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := search(c.q)
			if c.name == "OrOfWords" {
				if len(got) != 2 {
					t.Fatalf("got %v, want the two memories with either word", got)
				}
				return
			}
			if c.name == "StopwordsOnly" {
				// Stopwords are searched when nothing else remains, and the
				// index keeps them: every memory with "the" matches.
				if len(got) != 4 {
					t.Fatalf("got %v, want the 4 active memories holding \"the\"", got)
				}
				return
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}

// TestMemoriesAsOf reads memory as it stood before a change and before a
// deletion.
func TestMemoriesAsOf(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, pgtest.NewDatabase(t), "")
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return clock }
	s := postgres.NewMemoryService(db)
	res, err := s.PutMemory(ctx, &recall.Memory{Key: "k", Content: "one"})
	if err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(time.Hour)
	if _, err := s.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Content: ptr("two")}); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(time.Hour)
	if err := s.DeleteMemory(ctx, res.Memory.ID); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		at   time.Time
		want string // "" for no memory
	}{
		{start.Add(-time.Second), ""},
		{start.Add(time.Minute), "one"},
		{start.Add(time.Hour), "two"},
		{start.Add(2 * time.Hour), ""},
	} {
		got, err := s.MemoriesAsOf(ctx, c.at)
		if err != nil {
			t.Fatal(err)
		}
		if (c.want == "" && len(got) != 0) || (c.want != "" && (len(got) != 1 || got[0].Content != c.want)) {
			t.Fatalf("as of %v: %+v, want %q", c.at, got, c.want)
		}
	}
}

// TestOpenConcurrently opens one fresh database from several goroutines
// at once: the advisory lock lets each migration run once, and every open
// succeeds.
func TestOpenConcurrently(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			db, err := postgres.Open(context.Background(), dbURL)
			if err == nil {
				db.Close()
			}
			errs[i] = err
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestConcurrentPutsOfOneKey writes one new key from many goroutines at
// once: it stays one memory with gap-free versions.
func TestConcurrentPutsOfOneKey(t *testing.T) {
	ctx := context.Background()
	s := postgres.NewMemoryService(mustOpen(t, pgtest.NewDatabase(t), ""))
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			// Each writer says something else: a put that changes nothing
			// writes no version.
			_, errs[i] = s.PutMemory(ctx, &recall.Memory{Key: "shared", Content: fmt.Sprintf("writer %d", i)})
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ms, total, err := s.FindMemories(ctx, recall.MemoryFilter{})
	if err != nil || total != 1 {
		t.Fatalf("%d memories (%v), want 1", total, err)
	}
	vs, err := s.MemoryVersions(ctx, ms[0].ID)
	if err != nil || len(vs) != n || ms[0].Version != n {
		t.Fatalf("%d versions, memory at version %d (%v), want %d", len(vs), ms[0].Version, err, n)
	}
	for i, v := range vs {
		if v.Version != i+1 {
			t.Fatalf("version %d at position %d: versions have a gap", v.Version, i)
		}
	}
}

// TestSearchRareTermOutranksCommonTitle checks that how rare a word is
// counts, as in BM25: a memory holding the rare word of the query in its
// body outranks one holding only a word most memories share, even in its
// title.
func TestSearchRareTermOutranksCommonTitle(t *testing.T) {
	ctx := context.Background()
	s := postgres.NewMemoryService(mustOpen(t, pgtest.NewDatabase(t), ""))
	var batch []*recall.Memory
	for i := range 20 {
		batch = append(batch, &recall.Memory{ID: fmt.Sprintf("tr%010x", i+1), Content: fmt.Sprintf("project status update %d", i)})
	}
	if _, err := s.ImportMemories(ctx, batch); err != nil {
		t.Fatal(err)
	}
	title, err := s.PutMemory(ctx, &recall.Memory{Title: "Project", Content: "kickoff"})
	if err != nil {
		t.Fatal(err)
	}
	rare, err := s.PutMemory(ctx, &recall.Memory{Content: "the zeppelin hangar was cold"})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := s.Search(ctx, recall.SearchQuery{Text: "project zeppelin", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 || hits[0].Memory.ID != rare.Memory.ID || hits[1].Memory.ID != title.Memory.ID {
		var got []string
		for _, h := range hits {
			got = append(got, fmt.Sprintf("%s %.4f", h.Memory.Content, h.Score))
		}
		t.Fatalf("got %v, want the rare word first, then the title", got)
	}
}

// TestSearchLargeStore runs search on a store large enough for common
// words to be left out and for a query of only common words to rank
// just its newest matches, as on SQLite: a rare word still outranks a
// common one, and ties among the matches of a common word go to the
// newest 6,000 (SQLite's bound), not to the oldest ids.
func TestSearchLargeStore(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	s := postgres.NewMemoryService(mustOpen(t, dbURL, ""))
	const n, scored = 6500, 6000
	for lo := 0; lo < n; lo += 1000 {
		var batch []*recall.Memory
		for i := lo; i < min(lo+1000, n); i++ {
			batch = append(batch, &recall.Memory{ID: fmt.Sprintf("tr%010x", i+1), Content: fmt.Sprintf("project status update %d", i)})
		}
		if _, err := s.ImportMemories(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	rare, err := s.PutMemory(ctx, &recall.Memory{Title: "Zeppelin", Content: "hangar"})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := s.Search(ctx, recall.SearchQuery{Text: "project zeppelin", Limit: 1})
	if err != nil || len(hits) != 1 || hits[0].Memory.ID != rare.Memory.ID {
		t.Fatalf("hits %v (%v), want the rare word's memory", hits, err)
	}
	// Every "project" memory ties; ranked all, the oldest ids would win
	// the tie.
	hits, err = s.Search(ctx, recall.SearchQuery{Text: "project", Limit: 5})
	if err != nil || len(hits) != 5 {
		t.Fatalf("%d hits (%v)", len(hits), err)
	}
	oldest := fmt.Sprintf("tr%010x", n-scored)
	for _, h := range hits {
		if h.Memory.ID <= oldest {
			t.Fatalf("hit %s is older than the newest %d matches", h.Memory.ID, scored)
		}
	}
}
