package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/forget"
	"github.com/recall-mem/recall/maintain"
)

// The use cases below are whole requests: a server that answers a caller
// it cannot prompt (REST, MCP) calls one method and gets one result, with
// the workspace opened and closed, and the project lock held, inside.

// PlanSyncProject computes what SyncProject would change in the project
// at rootFlag, writing nothing.
func (e *Engine) PlanSyncProject(ctx context.Context, rootFlag string, now time.Time) (*SyncReport, error) {
	ws, err := e.OpenWorkspace(ctx, rootFlag)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	sp, err := e.PlanSync(ctx, ws, now)
	if err != nil {
		return nil, err
	}
	return sp.Report(), nil
}

// MaintainRequest is one non-interactive maintenance run.
type MaintainRequest struct {
	// Choices are "action" per memory id (pin, unpin, snooze, demote,
	// archive, supersede, verify or review, keep); the first for an id
	// wins.
	Choices []ChoiceRequest `json:"choices,omitempty"`
	// Recommended adds the plan's recommendations (demote for pressure,
	// archive for superseded) after Choices.
	Recommended bool `json:"recommended,omitempty"`
	// SnoozeDays is the length of a snooze; 0 means the default.
	SnoozeDays int `json:"snooze_days,omitempty"`
	// Now is the time maintenance treats as now; zero means the clock.
	Now time.Time `json:"now,omitzero"`
}

// ChoiceRequest is one action on one memory.
type ChoiceRequest struct {
	ID     string `json:"id"`
	Action string `json:"action"`
}

// MaintainResult is what a maintenance run did.
type MaintainResult struct {
	Plan    *recall.MaintainPlan `json:"plan"`
	Synced  int                  `json:"synced"` // entries the sync before the plan changed
	Applied []Applied            `json:"applied"`
	// WorkingAfter is the working set's size after the run, in words.
	WorkingAfter int `json:"working_after"`
}

// ApplyMaintenance syncs the project at rootFlag, plans maintenance under
// the [working] budget and carries out req's choices, as
// `recall maintain --apply` (or --yes) does.
func (e *Engine) ApplyMaintenance(ctx context.Context, rootFlag string, req MaintainRequest) (*MaintainResult, error) {
	choices := make([]maintain.Choice, 0, len(req.Choices))
	for _, c := range req.Choices {
		act, err := maintain.ParseAction(c.Action)
		if err != nil {
			return nil, err
		}
		if c.ID == "" {
			return nil, recall.Errorf(recall.EINVALID, "A choice without an id: give each choice the memory's id.")
		}
		choices = append(choices, maintain.Choice{ID: c.ID, Action: act})
	}
	if len(choices) == 0 && !req.Recommended {
		return nil, recall.Errorf(recall.EINVALID, "Nothing to apply: give choices, or recommended to apply the plan's recommendations.")
	}
	now := req.Now
	if now.IsZero() {
		now = e.Now()
	}
	ws, err := e.OpenWorkspace(ctx, rootFlag)
	if err != nil {
		return nil, err
	}
	defer ws.Close() // ws is reloaded by MaintainPlan; this releases the lock
	budget, unit := e.Config.Working.BudgetWords, maintain.UnitWords
	p, synced, ws, err := e.MaintainPlan(ctx, ws, now, budget, unit)
	if err != nil {
		return nil, err
	}
	if req.Recommended {
		choices = append(choices, Recommended(p)...)
	}
	done, err := e.MaintainApply(ctx, ws, p, choices, maintain.Options{Now: now, SnoozeDays: req.SnoozeDays}, nil)
	if err != nil {
		return nil, err
	}
	days := req.SnoozeDays
	if days <= 0 {
		days = recall.DefaultSnoozeDays
	}
	// The summary also rewrites metadata.json when the project keeps one.
	sum, err := e.MaintainSummary(ctx, ws.Root, p, done, now.AddDate(0, 0, days), unit)
	if err != nil {
		return nil, err
	}
	if done == nil {
		done = []Applied{}
	}
	return &MaintainResult{Plan: p, Synced: synced, Applied: done, WorkingAfter: sum.After}, nil
}

// ResolvePurge checks purge criteria and resolves OlderThanDays against
// now, as PlanPurge and Purge expect them.
func ResolvePurge(c *recall.PurgeCriteria, now time.Time) error { return forget.Resolve(c, now) }

// BackupDir is where BackupInStore writes, inside the store directory.
const BackupDir = "backups"

// BackupInStore writes a consistent copy of the store to a new file under
// the store's backups/ directory and returns its path: for servers, whose
// callers must not choose a path on the server's disk.
func (e *Engine) BackupInStore(ctx context.Context, now time.Time) (string, recall.BackupCounts, error) {
	dir := filepath.Join(e.Location.Dir, BackupDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", recall.BackupCounts{}, fmt.Errorf("create %s: %w", dir, err)
	}
	// A fresh name for each call, so concurrent backups never collide.
	f, err := os.CreateTemp(dir, "recall-"+now.UTC().Format("20060102T150405Z")+"-*.db")
	if err != nil {
		return "", recall.BackupCounts{}, fmt.Errorf("create a backup file: %w", err)
	}
	path := f.Name()
	f.Close() // the backup replaces the empty file
	counts, err := e.Backup(ctx, path)
	if err != nil {
		return "", counts, err
	}
	return path, counts, nil
}

// PlanMaintenance plans maintenance of the project at rootFlag under the
// [working] budget, changing nothing (what `recall maintain --json`
// prints).
func (e *Engine) PlanMaintenance(ctx context.Context, rootFlag string) (*recall.MaintainPlan, error) {
	root, err := e.ProjectRoot(rootFlag)
	if err != nil {
		return nil, err
	}
	return e.Maintainer(root, nil, 0, "").Plan(ctx)
}
