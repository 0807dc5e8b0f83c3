package recalltest

import (
	"context"

	"github.com/recall-mem/recall"
)

// PanicQuery is the query on which PanicSearcher panics.
const PanicQuery = "boom"

// PanicSearcher panics on PanicQuery, as timeq once did on "Ⱥ in May
// 2023", and passes every other query to the Searcher it wraps: for
// tests that a server survives a handler that panics.
type PanicSearcher struct{ recall.Searcher }

// Search panics with an index out of range on PanicQuery.
func (p PanicSearcher) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	if q.Text == PanicQuery {
		var s []int
		_ = s[len(q.Text)]
	}
	return p.Searcher.Search(ctx, q)
}
