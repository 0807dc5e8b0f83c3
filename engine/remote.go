package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/recall-mem/recall"
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

// MaintainResult is what ApplyMaintenance did.
type MaintainResult struct {
	Plan    *recall.MaintainPlan `json:"plan"`    // the plan the choices were applied to
	Changed int                  `json:"changed"` // entries the reconciling sync changed first
	Applied []Applied            `json:"applied"`
	Summary *maintain.Summary    `json:"summary"`
}

// ApplyMaintenance is `recall maintain --apply` (or --yes when
// recommended is set; the recommendations come after choices) for the
// project at rootFlag, without a terminal: sync, plan at now under the
// [working] budget, carry out the choices and summarise, under the
// project lock. snoozeDays is the length of a snooze (0: the default).
func (e *Engine) ApplyMaintenance(ctx context.Context, rootFlag string, now time.Time, choices []maintain.Choice, recommended bool, snoozeDays int) (*MaintainResult, error) {
	if snoozeDays <= 0 {
		snoozeDays = recall.DefaultSnoozeDays
	}
	ws, err := e.OpenWorkspace(ctx, rootFlag)
	if err != nil {
		return nil, err
	}
	defer ws.Close() // MaintainPlan reloads ws; this releases the lock
	unit := maintain.UnitWords
	p, changed, planned, err := e.MaintainPlan(ctx, ws, now, e.Config.Working.BudgetWords, unit)
	if err != nil {
		return nil, err
	}
	if recommended {
		choices = append(choices, Recommended(p)...)
	}
	done, err := e.MaintainApply(ctx, planned, p, choices, maintain.Options{Now: now, SnoozeDays: snoozeDays}, nil)
	if err != nil {
		return nil, err
	}
	// The summary also rewrites metadata.json when the project keeps one.
	sum, err := e.MaintainSummary(ctx, planned.Root, p, done, now.AddDate(0, 0, snoozeDays), unit)
	if err != nil {
		return nil, err
	}
	if done == nil {
		done = []Applied{}
	}
	return &MaintainResult{Plan: p, Changed: changed, Applied: done, Summary: sum}, nil
}

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

// PlanMaintenance is `recall maintain --json` for the project at
// rootFlag: the plan at now under the [working] budget, nothing changed.
func (e *Engine) PlanMaintenance(ctx context.Context, rootFlag string, now time.Time) (*recall.MaintainPlan, error) {
	root, err := e.ProjectRoot(rootFlag)
	if err != nil {
		return nil, err
	}
	return e.Maintainer(root, func() time.Time { return now }, e.Config.Working.BudgetWords, maintain.UnitWords).Plan(ctx)
}
