package engine

import (
	"context"
	"path/filepath"
	"time"

	"github.com/recall-mem/recall/maintain"
	"github.com/recall-mem/recall/markdown"
)

// maintainSource gathers the input of a maintenance plan from the files
// and the store; it is what `recall maintain --json` and the MCP tool
// maintain_plan plan on.
type maintainSource struct {
	e    *Engine
	root string
	now  func() time.Time
}

// Input loads the workspace, refuses as seed 000 does when entries lack ids
// or share one, and collects anchors and daily logs. It changes nothing.
func (s *maintainSource) Input(ctx context.Context) (*maintain.Input, error) {
	ws, err := s.e.LoadWorkspace(ctx, s.root)
	if err != nil {
		return nil, err
	}
	if err := CheckEntries(ws.Set, "maintain"); err != nil {
		return nil, err
	}
	return s.e.previewInput(ctx, ws, s.now().UTC())
}

// previewInput is a plan's input on the reconciled view of the workspace
// (as a sync would leave it), computed without writing anything.
func (e *Engine) previewInput(ctx context.Context, ws *Workspace, now time.Time) (*maintain.Input, error) {
	sp, err := e.PlanSync(ctx, ws, now)
	if err != nil {
		return nil, err
	}
	ws.Mems = markdown.Preview(sp.in, sp.rep.SyncResult)
	return e.planInput(ctx, ws)
}

// planInput builds a plan's input from a loaded workspace.
func (e *Engine) planInput(ctx context.Context, ws *Workspace) (*maintain.Input, error) {
	anchored, err := e.tierStore().AnchoredMemories(ctx)
	if err != nil {
		return nil, err
	}
	hashes, problems := AnchorHashes(ws.Root, anchored)
	in := &maintain.Input{
		Entries: ws.Set.Entries(), Memories: ws.Mems, Anchored: anchored,
		FileHashes: hashes, FileProblems: problems, Budget: e.Config.Working.BudgetWords,
	}
	daily, err := filepath.Glob(filepath.Join(ws.Root, filepath.FromSlash(markdown.DailyDir), "*.md"))
	if err != nil {
		return nil, err
	}
	for _, p := range daily {
		if rel, err := filepath.Rel(ws.Root, p); err == nil {
			in.DailyLogs = append(in.DailyLogs, filepath.ToSlash(rel))
		}
	}
	return in, nil
}

// Maintainer plans maintenance of the project at root without changing
// anything; the MCP server's maintain_plan tool calls
// e.Maintainer(root, nil, 0, "") once the store is open. A nil clock is the
// wall clock, budget 0 and unit "" mean [working] budget_words in words.
func (e *Engine) Maintainer(root string, now func() time.Time, budget int, unit string) *maintain.Maintainer {
	if now == nil {
		now = e.Now
	}
	if budget <= 0 {
		budget = e.Config.Working.BudgetWords
	}
	return &maintain.Maintainer{Source: &maintainSource{e: e, root: root, now: now}, Now: now, Budget: budget, Unit: unit}
}
