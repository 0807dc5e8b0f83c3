package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/maintain"
)

// syncOut is what a sync of the managed files changes, by entry id.
type syncOut struct {
	Tagged   int      `json:"tagged" jsonschema:"entries that had no id and got one"`
	Added    []string `json:"added" jsonschema:"new in a file: added to the store"`
	Edited   []string `json:"edited" jsonschema:"edited in a file: a new version in the store"`
	Retiered []string `json:"retiered" jsonschema:"moved between files: tier changed in the store"`
	Rendered []string `json:"rendered" jsonschema:"changed in the store: line rewritten in its file"`
	Moved    []string `json:"moved" jsonschema:"tier changed in the store: line moved to that tier's file"`
	Appended []string `json:"appended" jsonschema:"working memory of the store: line added to the working file"`
	Missing  []string `json:"missing" jsonschema:"gone from every file: archived in the store, not deleted"`
	Removed  []string `json:"removed" jsonschema:"deleted from the store: line removed from its file"`
	Files    []string `json:"files" jsonschema:"files written (or, for a plan, to be written)"`
	Metadata string   `json:"metadata,omitempty" jsonschema:"imported or written, when the project keeps metadata.json"`
}

func toSyncOut(r *engine.SyncReport) syncOut {
	out := syncOut{Tagged: r.Tagged, Metadata: r.Metadata}
	if s := r.SyncResult; s != nil {
		out.Added, out.Edited, out.Retiered, out.Rendered = s.Added, s.Edited, s.Retiered, s.Rendered
		out.Moved, out.Appended, out.Missing, out.Removed, out.Files = s.Moved, s.Appended, s.Missing, s.Removed, s.Files
	}
	return out
}

type choiceIn struct {
	ID     string `json:"id" jsonschema:"entry id from maintain_plan"`
	Action string `json:"action" jsonschema:"keep, pin, unpin, snooze, demote, archive, supersede or verify"`
}

type maintainApplyIn struct {
	Actions     []choiceIn `json:"actions,omitempty" jsonschema:"the actions to carry out, one per entry"`
	Recommended bool       `json:"recommended,omitempty" jsonschema:"also apply the plan's recommended action to every candidate (demote for pressure, archive for superseded), as recall maintain --yes"`
	SnoozeDays  int        `json:"snooze_days,omitempty" jsonschema:"days a snooze lasts (default 30)"`
}

type maintainApplyOut struct {
	Changed int               `json:"changed" jsonschema:"entries the reconciling sync changed before planning"`
	Applied []engine.Applied  `json:"applied"`
	Before  int               `json:"before" jsonschema:"working memory size before, in words"`
	After   int               `json:"after" jsonschema:"working memory size after, in words"`
	Target  int               `json:"target" jsonschema:"the working memory budget, in words"`
	Counts  map[string]int    `json:"counts" jsonschema:"actions carried out, by kind"`
	Plan    *maintainPlanSize `json:"plan"`
}

// maintainPlanSize is the size of the plan the actions were chosen from.
type maintainPlanSize struct {
	Pressure   int `json:"pressure_candidates"`
	Superseded int `json:"superseded_candidates"`
	Findings   int `json:"findings"`
}

type sessionListIn struct {
	Limit int `json:"limit,omitempty" jsonschema:"at most this many, newest first (default 20, at most 200)"`
}

type sessionListOut struct {
	Sessions []*recall.Session `json:"sessions"`
}

func (t *tools) addProjectTools(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "maintain_sync_plan", Annotations: readOnly("Plan a sync"),
		Description: "Show what maintain_sync would change between the project's managed markdown files (the working file, memory/registers, memory/archive) and the store, by entry id, without writing anything."}, t.syncPlan)
	sdk.AddTool(s, &sdk.Tool{Name: "maintain_sync", Annotations: writes("Sync the managed files", true, true),
		Description: "Reconcile the project's managed markdown files and the store, as `recall sync` does: entries edited in the files become new versions, store changes are written back to their lines, untagged entries get ids. Run maintain_sync_plan first to see what it changes. Running it twice changes nothing the second time."}, t.sync)
	sdk.AddTool(s, &sdk.Tool{Name: "maintain_apply", Annotations: writes("Apply maintenance", true, false),
		Description: "Carry out maintenance actions on entries, as `recall maintain --apply` (or --yes with recommended): reconcile files and store, plan, then apply each action (keep, pin, unpin, snooze, demote, archive, supersede, verify) moving the entries' lines between the managed files in one transaction. Take ids and actions from maintain_plan, and apply what the user agreed to."}, t.maintainApply)
	sdk.AddTool(s, &sdk.Tool{Name: "session_list", Annotations: readOnly("List sessions"),
		Description: "List recorded work sessions, newest first: id, project, agent, start and end times, state and the summary session_end stored."}, t.sessionList)
}

func (t *tools) syncPlan(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, syncOut, error) {
	rep, err := t.eng.PlanSyncProject(ctx, "", t.now())
	if err != nil {
		return nil, syncOut{}, t.fail(ctx, "maintain_sync_plan", err, "")
	}
	return nil, toSyncOut(rep), nil
}

func (t *tools) sync(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, syncOut, error) {
	rep, err := t.eng.SyncProject(ctx, "", t.now())
	if err != nil {
		return nil, syncOut{}, t.fail(ctx, "maintain_sync", err, "")
	}
	return nil, toSyncOut(rep), nil
}

func (t *tools) maintainApply(ctx context.Context, _ *sdk.CallToolRequest, in maintainApplyIn) (*sdk.CallToolResult, maintainApplyOut, error) {
	var choices []maintain.Choice
	for _, c := range in.Actions {
		act, err := maintain.ParseAction(c.Action)
		if err == nil && act == maintain.ActUpdate {
			err = recall.Errorf(recall.EINVALID, "update needs new text: use memory_update on %s instead.", c.ID)
		}
		if err != nil {
			return nil, maintainApplyOut{}, t.fail(ctx, "maintain_apply", err, "")
		}
		choices = append(choices, maintain.Choice{ID: c.ID, Action: act})
	}
	if len(choices) == 0 && !in.Recommended {
		return nil, maintainApplyOut{}, t.fail(ctx, "maintain_apply", recall.Errorf(recall.EINVALID, "Give actions, or recommended true, to apply something."), "")
	}
	res, err := t.eng.ApplyMaintenance(ctx, "", t.now(), choices, in.Recommended, in.SnoozeDays)
	if err != nil {
		return nil, maintainApplyOut{}, t.fail(ctx, "maintain_apply", err, "Call maintain_plan to see the entries and their ids.")
	}
	out := maintainApplyOut{Changed: res.Changed, Applied: res.Applied, Counts: map[string]int{},
		Plan: &maintainPlanSize{Pressure: len(res.Plan.PressureCandidates), Superseded: len(res.Plan.SupersededCandidates), Findings: len(res.Plan.Findings)}}
	if sum := res.Summary; sum != nil {
		out.Before, out.After, out.Target = sum.Before, sum.After, sum.Target
	}
	for _, a := range res.Applied {
		out.Counts[a.Action]++
	}
	return nil, out, nil
}

func (t *tools) sessionList(ctx context.Context, _ *sdk.CallToolRequest, in sessionListIn) (*sdk.CallToolResult, sessionListOut, error) {
	ss, err := t.eng.ListSessions(ctx, clamp(in.Limit, 20, 200))
	if err != nil {
		return nil, sessionListOut{}, t.fail(ctx, "session_list", err, "")
	}
	if ss == nil {
		ss = []*recall.Session{}
	}
	return nil, sessionListOut{Sessions: ss}, nil
}
