package main

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
	a    *app
	root string
	now  func() time.Time
}

// Input loads the workspace, refuses as seed 000 does when entries lack ids
// or share one, and collects anchors and daily logs. It changes nothing.
func (s *maintainSource) Input(ctx context.Context) (*maintain.Input, error) {
	ws, err := s.a.loadWorkspace(ctx, s.root)
	if err != nil {
		return nil, err
	}
	if err := checkEntries(ws.set, "maintain"); err != nil {
		return nil, err
	}
	return s.a.previewInput(ctx, ws, s.now().UTC())
}

// previewInput is a plan's input on the reconciled view of the workspace
// (as a sync would leave it), computed without writing anything.
func (a *app) previewInput(ctx context.Context, ws *workspace, now time.Time) (*maintain.Input, error) {
	sp, err := a.planSync(ctx, ws, now)
	if err != nil {
		return nil, err
	}
	ws.mems = markdown.Preview(sp.in, sp.rep.SyncResult)
	return a.planInput(ctx, ws)
}

// planInput builds a plan's input from a loaded workspace.
func (a *app) planInput(ctx context.Context, ws *workspace) (*maintain.Input, error) {
	anchored, err := a.tierStore().AnchoredMemories(ctx)
	if err != nil {
		return nil, err
	}
	hashes, problems := anchorHashes(ws.root, anchored)
	in := &maintain.Input{
		Entries: ws.set.Entries(), Memories: ws.mems, Anchored: anchored,
		FileHashes: hashes, FileProblems: problems, Budget: a.cfg.Working.BudgetWords,
	}
	daily, err := filepath.Glob(filepath.Join(ws.root, filepath.FromSlash(markdown.DailyDir), "*.md"))
	if err != nil {
		return nil, err
	}
	for _, p := range daily {
		if rel, err := filepath.Rel(ws.root, p); err == nil {
			in.DailyLogs = append(in.DailyLogs, filepath.ToSlash(rel))
		}
	}
	return in, nil
}

// maintainer plans maintenance of the project at root without changing
// anything; the MCP server's maintain_plan tool calls
// a.maintainer(root, nil, 0, "") once the store is open. A nil clock is the
// wall clock, budget 0 and unit "" mean [working] budget_words in words.
func (a *app) maintainer(root string, now func() time.Time, budget int, unit string) *maintain.Maintainer {
	if now == nil {
		now = a.now
	}
	if budget <= 0 {
		budget = a.cfg.Working.BudgetWords
	}
	return &maintain.Maintainer{Source: &maintainSource{a: a, root: root, now: now}, Now: now, Budget: budget, Unit: unit}
}
