package sqlite_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

func TestFTSQuery(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"GPU acceleration", `"gpu" OR "acceleration"`},
		{`"unbalanced`, `"unbalanced"`},
		{"col:value x-y", `"col" OR "value" OR "x" OR "y"`},
		{"NEAR(x y) AND *", `"near" OR "x" OR "y"`},
		{"what is the", `"what" OR "is" OR "the"`}, // only stopwords: keep them
		{"¿Qué tal? café", `"qué" OR "tal" OR "café"`},
		{"  ", ``},
	} {
		if got := sqlite.FTSQuery(tt.in); got != tt.want {
			t.Errorf("FTSQuery(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzSearch checks that no query text, however odd, makes SQLite fail.
func FuzzSearch(f *testing.F) {
	db := MustOpenDB(f)
	s := sqlite.NewMemoryService(db)
	ctx := context.Background()
	if _, err := s.PutMemory(ctx, &recall.Memory{Title: "seed", Content: `quotes " and col:on a-b NEAR AND OR NOT ^ * ( )`}); err != nil {
		f.Fatal(err)
	}
	for _, q := range []string{`"`, `a:b`, `-x`, `NEAR(a b, 3)`, `a AND (b OR`, `^start`, `*`, "\x00", `'; DROP TABLE memories; --`, `{col1 col2}: x`} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := s.Search(ctx, recall.SearchQuery{Text: q}); err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		if _, _, err := sqlite.NewObservationService(db).FindObservations(ctx, recall.ObservationFilter{Search: q, Limit: 1}); err != nil {
			t.Fatalf("FindObservations(%q): %v", q, err)
		}
	})
}
