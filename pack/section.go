package pack

import (
	"context"
	"strings"

	"github.com/recall-mem/recall"
)

// Section is one source of context, such as the pinned core or the hits for
// a query. Sections are packed in the order given to the Builder, so the
// most valuable comes first; other packages add sections (recent sessions,
// rollups) by passing more of them.
type Section struct {
	Name  string // key in JSON output: pinned, working, hits, sessions, rollups
	Title string // heading in the text output
	// Fetch returns the section's candidate items, best first. Items that do
	// not fit the remaining budget are skipped, not truncated further.
	Fetch func(ctx context.Context, req recall.ContextRequest) ([]recall.ContextItem, error)
}

// Pinned is the core memory section: every pinned, active memory.
func Pinned(mem recall.MemoryService) Section {
	return memorySection("pinned", "Pinned core", mem, func(f *recall.MemoryFilter) {
		pinned := true
		f.Pinned = &pinned
	})
}

// Working is the working set: active memories in the working tier.
func Working(mem recall.MemoryService) Section {
	return memorySection("working", "Working set", mem, func(f *recall.MemoryFilter) {
		tier := recall.TierWorking
		f.Tier = &tier
	})
}

// MemorySectionLimit is how many memories a memory section (Pinned,
// Working) reads at most.
const MemorySectionLimit = 200

func memorySection(name, title string, mem recall.MemoryService, narrow func(*recall.MemoryFilter)) Section {
	return Section{Name: name, Title: title, Fetch: func(ctx context.Context, req recall.ContextRequest) ([]recall.ContextItem, error) {
		var f recall.MemoryFilter
		f.Project = req.Filter.Project
		f.Collection = req.Filter.Collection
		f.Limit = MemorySectionLimit
		narrow(&f)
		ms, _, err := mem.FindMemories(ctx, f)
		if err != nil {
			return nil, err
		}
		items := make([]recall.ContextItem, 0, len(ms))
		for _, m := range ms {
			items = append(items, MemoryItem(m, ""))
		}
		return items, nil
	}}
}

// Hits is the section of the best memories for the request's query; it is
// empty without a query.
func Hits(s recall.Searcher, limit int) Section {
	return Section{Name: "hits", Title: "Relevant memories", Fetch: func(ctx context.Context, req recall.ContextRequest) ([]recall.ContextItem, error) {
		if strings.TrimSpace(req.Query) == "" {
			return nil, nil
		}
		hits, err := s.Search(ctx, recall.SearchQuery{Text: req.Query, Filter: req.Filter, Limit: limit, Now: req.Now})
		if err != nil {
			return nil, err
		}
		items := make([]recall.ContextItem, 0, len(hits))
		for _, h := range hits {
			if h.Score < minHitShare*hits[0].Score {
				break // a faint match is not worth the tokens
			}
			items = append(items, MemoryItem(h.Memory, h.Snippet))
			// The turns around a hit follow it and take their share of
			// the budget like any item.
			for _, c := range h.Context {
				items = append(items, MemoryItem(c.Memory, c.Snippet))
			}
		}
		return items, nil
	}}
}

// minHitShare is the smallest score, relative to the best hit, that a hit
// needs to be packed.
const minHitShare = 0.1

// maxItemRunes caps one item's text so a single long document cannot
// starve every other item of budget.
const maxItemRunes = 700

// MemoryItem renders a memory as one context item: its title and its
// content (or the given passage of it), on one line.
func MemoryItem(m *recall.Memory, passage string) recall.ContextItem {
	body := passage
	if body == "" {
		body = m.Content
	}
	body = clip(strings.Join(strings.Fields(recall.WithoutTitle(body, m.Title)), " "), maxItemRunes)
	text := body
	if m.Title != "" && !strings.HasPrefix(body, m.Title) {
		text = m.Title + ": " + body
	}
	return recall.ContextItem{ID: m.ID, Kind: "memory", Title: m.Title, Text: text}
}

// clip shortens s to at most n runes, at a word boundary when one is near.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n-1])
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)*3/4 {
		cut = cut[:i]
	}
	return cut + "…"
}
