package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// TestMatchExpr_Budget: on a store large enough to prune, common terms go,
// rare terms are kept rarest first within the row budget, and a term that
// alone matches more rows than the budget is scored on its newest rows.
func TestMatchExpr_Budget(t *testing.T) {
	ctx := context.Background()
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := NewMemoryService(db)
	s.maxScored = 100
	// 2,500 memories: every one says alpha; beta, gamma, delta and
	// quokka are in 60, 30, 20 and 3 of them.
	var batch []*recall.Memory
	for i := 0; i < 2500; i++ {
		words := []string{"alpha", fmt.Sprintf("filler%d", i)}
		for _, w := range []struct {
			word  string
			every int
		}{{"beta", 41}, {"gamma", 83}, {"delta", 125}, {"quokka", 833}} {
			if i%w.every == 0 {
				words = append(words, w.word)
			}
		}
		batch = append(batch, &recall.Memory{Content: strings.Join(words, " ")})
	}
	if _, err := s.ImportMemories(ctx, batch); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		query, expr string
		bounded     bool
	}{
		{"alpha beta gamma delta quokka", `"quokka" OR "delta" OR "gamma"`, false},
		{"beta alpha", `"beta"`, false},
		{"alpha", `"alpha"`, true},
	} {
		m, err := s.matchExpr(ctx, tt.query)
		if err != nil || m.expr != tt.expr || (m.from > 0) != tt.bounded {
			t.Errorf("%q: %+v, %v; want %s (bounded %v)", tt.query, m, err, tt.expr, tt.bounded)
		}
	}
	// The bounded single term scores exactly the budget's newest rows.
	m, _ := s.matchExpr(ctx, "alpha")
	var n int
	if err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM memories_fts WHERE memories_fts MATCH ? AND rowid >= ?`, m.expr, m.from).Scan(&n); err != nil || n != 100 {
		t.Fatalf("rows scored = %d, %v", n, err)
	}
	hits, err := s.Search(ctx, recall.SearchQuery{Text: "alpha", Limit: 10})
	if err != nil || len(hits) != 10 {
		t.Fatalf("search: %d hits, %v", len(hits), err)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
}
