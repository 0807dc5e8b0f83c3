package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// Term counts are remembered between searches and forgotten when the
// index changes: a count planted in the cache steers the next search, and
// a write by another handle (another process) makes the search count
// afresh and rank as a new handle does.
func TestTermCounts_KeptUntilTheIndexChanges(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	open := func() *DB {
		db := NewDB(path)
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	db := open()
	s := NewMemoryService(db)
	var ms []*recall.Memory
	for i := range 2100 {
		text := fmt.Sprintf("filler note number %d", i)
		switch {
		case i < 50:
			text = fmt.Sprintf("alpha entry %d", i)
		case i < 100:
			text = fmt.Sprintf("beta beta entry %d", i)
		}
		ms = append(ms, &recall.Memory{Title: text, Content: text})
	}
	if _, err := s.ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	words := func(s *MemoryService) string {
		t.Helper()
		hits, err := s.Search(ctx, recall.SearchQuery{Text: "alpha beta", Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, strings.Fields(h.Memory.Title)[0])
		}
		return strings.Join(out, " ")
	}
	clean := words(s)
	if !strings.Contains(clean, "beta") {
		t.Fatalf("both words are rare, so both rank: got %q", clean)
	}
	db.terms.mu.Lock()
	if len(db.terms.n) != 2 {
		t.Fatalf("after a search of two words: %d counts kept, want 2", len(db.terms.n))
	}
	for k := range db.terms.n { // both words now look common: only one is kept
		db.terms.n[k] = 210
	}
	db.terms.mu.Unlock()
	if got := words(s); strings.Contains(got, "beta") {
		t.Fatalf("the kept counts were not used: %q", got)
	}

	other := NewMemoryService(open())
	if _, err := other.PutMemory(ctx, &recall.Memory{Title: "gamma", Content: "gamma"}); err != nil {
		t.Fatal(err)
	}
	if got, want := words(s), words(NewMemoryService(open())); got != want || !strings.Contains(got, "beta") {
		t.Fatalf("after another handle wrote: %q, a new handle ranks %q", got, want)
	}
}
