package pack_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/pack"
)

func fixed(name string, items ...recall.ContextItem) pack.Section {
	return pack.Section{Name: name, Title: strings.ToUpper(name[:1]) + name[1:], Fetch: func(context.Context, recall.ContextRequest) ([]recall.ContextItem, error) {
		return items, nil
	}}
}

func item(id, text string) recall.ContextItem {
	return recall.ContextItem{ID: id, Kind: "memory", Text: text}
}

func TestBuilder_BuildContext(t *testing.T) {
	ctx := context.Background()
	t.Run("OrderAndDedupe", func(t *testing.T) {
		b := pack.NewBuilder(
			fixed("pinned", item("tr0000000001", "Deploy through staging.")),
			fixed("hits", item("tr0000000001", "Deploy through staging."), item("tr0000000002", "Postgres 15 is the database.")),
		)
		p, err := b.BuildContext(ctx, recall.ContextRequest{Budget: 200})
		if err != nil {
			t.Fatal(err)
		}
		want := "## Pinned\n- Deploy through staging. ^tr0000000001\n\n## Hits\n- Postgres 15 is the database. ^tr0000000002\n"
		if p.Text != want {
			t.Fatalf("text:\n%s\nwant:\n%s", p.Text, want)
		}
		if len(p.Sections) != 2 || p.Sections[0].Name != "pinned" || len(p.Sections[1].Items) != 1 {
			t.Fatalf("sections: %+v", p.Sections)
		}
		sum := 0
		for _, s := range p.Sections {
			sum += s.Tokens
		}
		if p.Tokens > p.Budget || sum < p.Tokens-2 {
			t.Fatalf("tokens %d, sections sum %d", p.Tokens, sum)
		}
	})
	t.Run("SkipsWhatDoesNotFit", func(t *testing.T) {
		b := pack.NewBuilder(fixed("hits", item("tr0000000001", strings.Repeat("long words here ", 50)), item("tr0000000002", "Short.")))
		p, err := b.BuildContext(ctx, recall.ContextRequest{Budget: 20})
		if err != nil {
			t.Fatal(err)
		}
		if p.Dropped != 1 || !strings.Contains(p.Text, "Short.") || p.Tokens > 20 {
			t.Fatalf("pack: %+v", p)
		}
	})
	t.Run("ErrBudget", func(t *testing.T) {
		_, err := pack.NewBuilder().BuildContext(ctx, recall.ContextRequest{Budget: 0})
		if recall.ErrorCode(err) != recall.EINVALID {
			t.Fatalf("err = %v, want EINVALID", err)
		}
	})
}

// TestBuilder_NeverExceedsBudget is the packer's property: for random
// sections, items and budgets, the text's real token count is within the
// budget and equals what the pack reports.
func TestBuilder_NeverExceedsBudget(t *testing.T) {
	words := strings.Fields("the deploy staging canary 名前 über naïve x := f(y) {json: 1} \n\t ``` 12345 67 emoji 🚀 a-b_c ... !!!")
	rng := rand.New(rand.NewPCG(1, 2))
	tok := &pack.Tokenizer{}
	runs := 300
	if testing.Short() {
		runs = 60
	}
	for run := 0; run < runs; run++ {
		var secs []pack.Section
		for s := 0; s < 1+rng.IntN(4); s++ {
			var items []recall.ContextItem
			for i := 0; i < rng.IntN(12); i++ {
				var sb strings.Builder
				for w := 0; w < 1+rng.IntN(60); w++ {
					if w > 0 && rng.IntN(3) > 0 {
						sb.WriteByte(' ')
					}
					sb.WriteString(words[rng.IntN(len(words))])
				}
				items = append(items, item(fmt.Sprintf("tr%010x", rng.IntN(30)), sb.String()))
			}
			secs = append(secs, fixed(fmt.Sprintf("s%d", s), items...))
		}
		budget := 1 + rng.IntN(300)
		b := &pack.Builder{Sections: secs, Tokens: tok}
		p, err := b.BuildContext(context.Background(), recall.ContextRequest{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if got := tok.Count(p.Text); got > budget || got != p.Tokens {
			t.Fatalf("run %d: text has %d tokens, pack says %d, budget %d", run, got, p.Tokens, budget)
		}
	}
}
