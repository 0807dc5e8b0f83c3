package engine

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
	"github.com/recall-mem/recall/markdown"
)

// anchoredOf returns the memories of the workspace named by anchor findings.
func anchoredOf(ws *Workspace, p *recall.MaintainPlan) []*recall.Memory {
	var out []*recall.Memory
	for _, f := range maintain.Findings(p, recall.FindingAnchor) {
		if m := ws.Mems[f.IDs[0]]; m != nil {
			out = append(out, m)
		} else {
			out = append(out, &recall.Memory{ID: f.IDs[0], Anchors: []recall.Anchor{{Path: f.File}}})
		}
	}
	return out
}

// Recommended is what --yes applies: demote for pressure, archive for
// superseded.
func Recommended(p *recall.MaintainPlan) []maintain.Choice { return maintain.Recommended(p) }

// dedupe keeps the first choice for each id.
func dedupe(cs []maintain.Choice) []maintain.Choice {
	seen := map[string]bool{}
	var out []maintain.Choice
	for _, c := range cs {
		if !seen[c.ID] {
			seen[c.ID] = true
			out = append(out, c)
		}
	}
	return out
}

// MaintainSummary rewrites metadata.json when the project keeps one and
// returns seed 000's summary of what maintenance did.
func (e *Engine) MaintainSummary(ctx context.Context, root string, p *recall.MaintainPlan, done []Applied, snoozedUntil time.Time, unit string) (*maintain.Summary, error) {
	s := &maintain.Summary{Unit: unit, Before: p.WorkingWords, Target: p.Target, SnoozedUntil: snoozedUntil}
	s.SetChecks(p)
	stale := map[string]bool{}
	for _, f := range maintain.Findings(p, recall.FindingStale) {
		stale[f.IDs[0]] = true
	}
	for _, d := range done {
		s.Count(d.Action)
		if d.Action == maintain.ActVerify && stale[d.ID] {
			s.StaleVerified++
		}
	}
	ws, err := e.LoadWorkspace(ctx, root)
	if err != nil {
		return nil, err
	}
	for _, en := range ws.Set.Entries() {
		if en.Tier == recall.TierWorking {
			s.After += maintain.Count(unit, en.Text)
		}
	}
	md, exists, err := markdown.ReadMetadata(root)
	if err != nil {
		return nil, err
	}
	s.MetadataFile = exists
	if exists {
		if s.Entries, err = e.writeMetadata(ctx, root, md); err != nil {
			return nil, err
		}
	} else {
		s.Entries = len(ws.Set.Entries())
	}
	return s, nil
}

// MaintainPlan reconciles the workspace's files and the store (a sync),
// reloads the workspace and plans maintenance at now under budget (in
// unit). It returns the plan, how many entries the sync changed, and the
// reloaded workspace, on which MaintainApply acts.
func (e *Engine) MaintainPlan(ctx context.Context, ws *Workspace, now time.Time, budget int, unit string) (*recall.MaintainPlan, int, *Workspace, error) {
	if err := CheckEntries(ws.Set, "maintain"); err != nil {
		return nil, 0, nil, err
	}
	rep, err := e.Sync(ctx, ws, now)
	if err != nil {
		return nil, 0, nil, err
	}
	changed := len(rep.Added) + len(rep.Edited) + len(rep.Retiered) + len(rep.Rendered) + len(rep.Moved) + len(rep.Appended) + len(rep.Missing) + len(rep.Removed)
	if ws, err = e.LoadWorkspace(ctx, ws.Root); err != nil {
		return nil, changed, nil, err
	}
	in, err := e.planInput(ctx, ws)
	if err != nil {
		return nil, changed, nil, err
	}
	in.Now, in.Budget, in.Unit = now, budget, unit
	return maintain.Plan(*in), changed, ws, nil
}

// MaintainApply carries out choices (the first for each id) on the plan's
// workspace, refreshing the hashes of the anchored files its findings name.
func (e *Engine) MaintainApply(ctx context.Context, ws *Workspace, p *recall.MaintainPlan, choices []maintain.Choice, o maintain.Options, texts map[string]string) ([]Applied, error) {
	o.Hashes, _ = AnchorHashes(ws.Root, anchoredOf(ws, p))
	return e.applyChoices(ctx, ws, dedupe(choices), o, texts)
}

// MaintainRequest is `recall maintain` as asked, before any file is read.
type MaintainRequest struct {
	JSON, Yes                bool
	Apply, Now               string
	SnoozeDays, BudgetTokens int
}

// Check refuses a request that mixes modes or has impossible numbers, and
// returns the choices --apply names and the reference time (at, unless
// the request gives one).
func (r MaintainRequest) Check(at time.Time) ([]maintain.Choice, time.Time, error) {
	modes := 0
	for _, on := range []bool{r.JSON, r.Yes, r.Apply != ""} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return nil, at, recall.Errorf(recall.EINVALID, "choose one of --json, --yes and --apply")
	}
	if r.SnoozeDays <= 0 || r.BudgetTokens < 0 {
		return nil, at, recall.Errorf(recall.EINVALID, "--snooze-days must be positive and --budget-tokens not negative")
	}
	var choices []maintain.Choice
	if r.Apply != "" {
		var err error
		if choices, err = maintain.ParseApply(r.Apply); err != nil {
			return nil, at, err
		}
	}
	if r.Now != "" {
		t, err := ParseTime("now", r.Now)
		if err != nil {
			return nil, at, err
		}
		at = t
	}
	return choices, at, nil
}

// MaintainBudget is the working-memory budget and its unit: tokens when
// the request gives a token budget, else the configured words.
func (e *Engine) MaintainBudget(tokens int) (int, string) {
	if tokens > 0 {
		return tokens, maintain.UnitTokens
	}
	return e.Config.Working.BudgetWords, maintain.UnitWords
}
