package engine

import (
	"context"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/journal"
	"github.com/recall-mem/recall/pack"
	"github.com/recall-mem/recall/rollup"
)

// contextHits is how many query hits a context pack considers; the budget
// decides how many of them fit.
const contextHits = 20

// ContextBuilder returns the context assembler over the open store: pinned
// core, working set, then the best hits for the query. Call e.open first.
// The hook (SessionStart) and the MCP server use it too; sections from
// other packages (recent sessions, rollups) are appended here.
func (e *Engine) ContextBuilder() recall.ContextBuilder {
	return pack.NewBuilder(e.contextSections()...)
}

// contextSections are the sections of contextBuilder, in priority order.
func (e *Engine) contextSections() []pack.Section {
	return []pack.Section{
		pack.Pinned(e.mem),
		pack.Working(e.mem),
		pack.Hits(e.search, contextHits),
		pack.Section{Name: rollup.SectionName, Title: "Rollups (what history says now)", Fetch: e.rollupItems},
		pack.Section{Name: "sessions", Title: "Recent sessions", Fetch: journal.RecentSessions(e.SessionStore())},
	}
}

// rollupItems offers the current rollups, which stand in for the raw
// entries they cover.
func (e *Engine) rollupItems(ctx context.Context, req recall.ContextRequest) ([]recall.ContextItem, error) {
	sec, err := e.RollupSection().Build(ctx, req)
	return sec.Items, err
}
