package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
)

// filterIn are the memory filters, named as the CLI's flags.
type filterIn struct {
	Collection string   `json:"collection,omitempty" jsonschema:"only this collection"`
	Type       string   `json:"type,omitempty" jsonschema:"only this type, e.g. decision"`
	Tier       string   `json:"tier,omitempty" jsonschema:"only this tier: working, register or archive"`
	Status     string   `json:"status,omitempty" jsonschema:"only this status; default active, \"any\" for all"`
	Project    string   `json:"project,omitempty" jsonschema:"only this project"`
	Pinned     bool     `json:"pinned,omitempty" jsonschema:"only pinned memories"`
	Filter     []string `json:"filter,omitempty" jsonschema:"field filters \"field=v1,v2\" (field equals any value), e.g. [\"tags=api,auth\", \"metadata.source=chat\"]; fields: tags, category, priority, created_by, metadata.NAME"`
}

func (f filterIn) build() (recall.MemoryFilter, error) {
	var out recall.MemoryFilter
	opt := func(v string) *string {
		if v == "" {
			return nil
		}
		return &v
	}
	out.Collection, out.Type, out.Tier, out.Status, out.Project = opt(f.Collection), opt(f.Type), opt(f.Tier), opt(f.Status), opt(f.Project)
	if f.Pinned {
		out.Pinned = new(true)
	}
	fields, err := recall.ParseFieldFilters(f.Filter)
	if err != nil {
		return out, err
	}
	if len(fields) > 0 {
		out.Fields = fields
	}
	return out, nil
}

type searchIn struct {
	Query string `json:"query" jsonschema:"what to look for, in plain words (operators and quotes are read as text)"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many hits (default 10, at most 50)"`
	filterIn
}

type searchOut struct {
	Hits []memoryBrief `json:"hits"`
}

type listIn struct {
	Limit  int `json:"limit,omitempty" jsonschema:"at most this many (default 20, at most 100)"`
	Offset int `json:"offset,omitempty" jsonschema:"skip this many, to page"`
	filterIn
}

type listOut struct {
	Memories []memoryBrief `json:"memories"`
	Total    int           `json:"total" jsonschema:"how many match, ignoring limit and offset"`
}

// clamp returns n within [1, most], or def when n is not positive.
func clamp(n, def, most int) int {
	if n <= 0 {
		return def
	}
	return min(n, most)
}

func (t *tools) addSearchTool(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "memory_search", Annotations: readOnly("Search memories"),
		Description: "Search long-term memory by relevance to a query, best first. Use it before answering anything that may depend on earlier sessions, the user's preferences or past decisions. " +
			"Results are compact (id, title, the best-matching snippet, score); call memory_get for a full memory. Narrow with the filters."}, t.search)
}

func (t *tools) search(ctx context.Context, _ *sdk.CallToolRequest, in searchIn) (*sdk.CallToolResult, searchOut, error) {
	f, err := in.build()
	if err != nil {
		return nil, searchOut{}, t.fail(ctx, "memory_search", err, "")
	}
	hits, err := t.eng.Search(ctx, recall.SearchQuery{Text: in.Query, Filter: f, Limit: clamp(in.Limit, 10, 50), Now: t.now()})
	if err != nil {
		return nil, searchOut{}, t.fail(ctx, "memory_search", err, "")
	}
	out := searchOut{Hits: []memoryBrief{}}
	for _, h := range hits {
		text := h.Snippet
		if text == "" {
			text = h.Memory.Content
		}
		b := briefMemory(h.Memory, text)
		b.Score = h.Score
		for _, c := range h.Context {
			cb := briefMemory(c.Memory, c.Memory.Content)
			b.Context = append(b.Context, contextBrief{ID: cb.ID, Snippet: cb.Snippet, OccurredAt: cb.OccurredAt})
		}
		out.Hits = append(out.Hits, b)
	}
	return nil, out, nil
}

func (t *tools) list(ctx context.Context, _ *sdk.CallToolRequest, in listIn) (*sdk.CallToolResult, listOut, error) {
	f, err := in.build()
	if err != nil {
		return nil, listOut{}, t.fail(ctx, "memory_list", err, "")
	}
	f.Limit, f.Offset = clamp(in.Limit, 20, 100), in.Offset
	ms, total, err := t.eng.List(ctx, f)
	if err != nil {
		return nil, listOut{}, t.fail(ctx, "memory_list", err, "")
	}
	out := listOut{Memories: []memoryBrief{}, Total: total}
	for _, m := range ms {
		out.Memories = append(out.Memories, briefMemory(m, m.Content))
	}
	return nil, out, nil
}
