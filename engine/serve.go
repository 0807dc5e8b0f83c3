package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
)

// Use cases shaped for a long-running server (MCP, REST): each opens and
// closes what it needs under the project lock, takes no path from the
// caller, and returns a value to render instead of printing.

// PlanSyncProject is what SyncProject would change in the project at
// rootFlag (see ProjectRoot), computed under the project lock; nothing is
// written, untagged entries included.
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

// PlanMaintenance is `recall maintain --json` for the project at rootFlag:
// the plan at now under the configured budget, with nothing changed.
func (e *Engine) PlanMaintenance(ctx context.Context, rootFlag string, now time.Time) (*recall.MaintainPlan, error) {
	if err := e.OpenForWrite(ctx); err != nil {
		return nil, err
	}
	root, err := e.ProjectRoot(rootFlag)
	if err != nil {
		return nil, err
	}
	return e.Maintainer(root, func() time.Time { return now }, e.Config.Working.BudgetWords, maintain.UnitWords).Plan(ctx)
}

// MaintainResult is what ApplyMaintenance did.
type MaintainResult struct {
	Plan    *recall.MaintainPlan `json:"plan"`    // the plan the choices were applied to
	Changed int                  `json:"changed"` // entries the reconciling sync changed first
	Applied []Applied            `json:"applied"`
	Summary *maintain.Summary    `json:"summary"`
}

// ApplyMaintenance is `recall maintain --apply` (or --yes when recommended
// is set, whose recommended actions come after choices) for the project
// at rootFlag, without a terminal: reconcile files and store, plan at now
// under the configured budget, carry out the choices and summarise, all
// under the project lock. snoozeDays is the length of a snooze.
func (e *Engine) ApplyMaintenance(ctx context.Context, rootFlag string, now time.Time, choices []maintain.Choice, recommended bool, snoozeDays int) (*MaintainResult, error) {
	if snoozeDays <= 0 {
		snoozeDays = recall.DefaultSnoozeDays
	}
	ws, err := e.OpenWorkspace(ctx, rootFlag)
	if err != nil {
		return nil, err
	}
	defer ws.Close() // the plan reloads ws; this releases the lock
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
	sum, err := e.MaintainSummary(ctx, planned.Root, p, done, now.AddDate(0, 0, snoozeDays), unit)
	if err != nil {
		return nil, err
	}
	if done == nil {
		done = []Applied{}
	}
	return &MaintainResult{Plan: p, Changed: changed, Applied: done, Summary: sum}, nil
}

// BackupDir is where BackupInStore writes, inside the store directory
// (whose .gitignore keeps everything out of git).
const BackupDir = "backups"

// BackupInStore writes a consistent copy of the store to a new file named
// for now under the store's backups directory and returns its path: a
// server's client chooses no path, so it can overwrite nothing outside
// the store.
func (e *Engine) BackupInStore(ctx context.Context, now time.Time) (string, recall.BackupCounts, error) {
	dir := filepath.Join(e.Location.Dir, BackupDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", recall.BackupCounts{}, err
	}
	// The name is new: a second backup in the same second gets a suffix
	// rather than replacing the first.
	base := "recall-" + now.UTC().Format("20060102T150405Z")
	path := filepath.Join(dir, base+".db")
	for i := 2; ; i++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", recall.BackupCounts{}, err
		}
		path = filepath.Join(dir, base+"-"+strconv.Itoa(i)+".db")
	}
	counts, err := e.Backup(ctx, path)
	if err != nil {
		os.Remove(path)
		return "", counts, err
	}
	return path, counts, nil
}
