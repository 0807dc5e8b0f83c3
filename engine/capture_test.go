package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/pack"
)

func TestBytesFirst_BuildContext(t *testing.T) {
	words := func(n int) []recall.ContextItem {
		return []recall.ContextItem{{ID: "a", Kind: "note", Text: strings.Repeat("word ", n)}}
	}
	build := func(items []recall.ContextItem) bytesFirst {
		s := pack.Section{Name: "s", Title: "S", Fetch: func(context.Context, recall.ContextRequest) ([]recall.ContextItem, error) { return items, nil }}
		return bytesFirst{cheap: &pack.Builder{Sections: []pack.Section{s}, Tokens: byteCounter{}}, exact: pack.NewBuilder(s)}
	}
	t.Run("FitsInBytes", func(t *testing.T) {
		p, err := build(words(10)).BuildContext(context.Background(), recall.ContextRequest{Budget: 200})
		if err != nil || p.Dropped != 0 || p.Tokens != len(p.Text) {
			t.Fatalf("pack %+v, %v: want the byte-counted pack", p, err)
		}
	})
	t.Run("FitsOnlyInTokens", func(t *testing.T) {
		p, err := build(words(100)).BuildContext(context.Background(), recall.ContextRequest{Budget: 200})
		if err != nil || p.Dropped != 0 || p.Tokens >= len(p.Text) || p.Tokens > 200 {
			t.Fatalf("pack %+v, %v: want the token-counted pack", p, err)
		}
	})
}
