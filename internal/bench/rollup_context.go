package bench

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/prose"
	"github.com/recall-mem/recall/rollup"
)

// benchContexts measures the contexts of both stores at now against the
// stream's current values.
func benchContexts(ctx context.Context, res *RollupReport, stream *benchStream, now time.Time, with, without *benchStore) error {
	truth := map[string]string{}
	for _, k := range stream.keys {
		if v, ok := stream.latest[k.key()]; ok {
			truth[k.key()] = rollup.Normalize(v)
		}
	}
	searchers := map[string]recall.Searcher{
		"without": without.mem,
		"with":    &rollup.Searcher{Base: with.mem, Rollups: with.rs},
	}
	res.Search = map[string]benchContext{}
	for side, s := range searchers {
		var c benchContext
		for _, k := range stream.keys {
			hits, err := s.Search(ctx, recall.SearchQuery{Text: k.title, Limit: 10, Now: now})
			if err != nil {
				return err
			}
			var items []benchItem
			for _, h := range hits {
				items = append(items, itemOfHit(h))
			}
			c.add(k.key(), truth[k.key()], items)
		}
		res.Search[side] = c
	}
	if w, wo := res.Search["with"].Tokens, res.Search["without"].Tokens; wo > 0 {
		res.TokenChange = float64(w-wo) / float64(wo)
	}

	// Inject: carry every key with no query.
	res.Inject = map[string]benchContext{}
	for side, st := range map[string]*benchStore{"without": without, "with": with} {
		var items []benchItem
		for _, typ := range []string{"preference", "constraint", "fact"} {
			typ := typ
			ms, _, err := st.mem.FindMemories(ctx, recall.MemoryFilter{Type: &typ})
			if err != nil {
				return err
			}
			for _, m := range ms {
				items = append(items, benchItem{key: recall.Slugify(m.Title), value: rollup.Normalize(m.Content), text: m.Title + ": " + m.Content})
			}
		}
		if side == "with" {
			sec, err := (&rollup.Section{Rollups: st.rs, MaxItems: 100}).Build(ctx, recall.ContextRequest{Budget: 4000, Now: now})
			if err != nil {
				return err
			}
			rs, err := st.rs.CurrentRollups(ctx, recall.RollupFilter{})
			if err != nil {
				return err
			}
			byID := map[string]*recall.Rollup{}
			for _, r := range rs {
				byID[r.ID] = r
			}
			for _, it := range sec.Items {
				if r := byID[it.ID]; r != nil {
					items = append(items, benchItem{key: r.Key, value: r.Value, text: it.Text})
				}
			}
		}
		var c benchContext
		for _, k := range stream.keys {
			c.add(k.key(), truth[k.key()], items)
		}
		res.Inject[side] = c
	}
	return nil
}

// benchItem is one context item about a key, with the value it shows as
// current.
type benchItem struct {
	key, value, text string
}

func itemOfHit(h *recall.SearchHit) benchItem {
	if r := h.Rollup; r != nil {
		return benchItem{key: r.Key, value: r.Value, text: r.Summary}
	}
	m := h.Memory
	return benchItem{key: recall.Slugify(m.Title), value: rollup.Normalize(m.Content), text: m.Title + ": " + m.Content}
}

// add counts the items about key: their tokens, those whose value is not
// the current one, and whether the current one is among them.
func (c *benchContext) add(key, truth string, items []benchItem) {
	found := false
	for _, it := range items {
		if it.key != key {
			continue
		}
		c.Items++
		c.Tokens += prose.Tokens(it.text)
		if it.value == truth {
			found = true
		} else {
			c.Stale++
		}
	}
	if found {
		c.Current++
	}
}
