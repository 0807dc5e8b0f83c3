package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hook"
	"github.com/spf13/cobra"
)

// Doctor check statuses; only fail makes doctor exit non-zero.
const (
	checkOK   = "ok"
	checkWarn = "warn"
	checkFail = "fail"
)

// errCheckFailed is the code of doctor's error: exit 1, like any failed
// check.
const errCheckFailed = "check_failed"

// checkResult is one line of the doctor's report.
type checkResult struct {
	Name    string   `json:"name"`
	Status  string   `json:"status"`
	Details []string `json:"details,omitempty"`
}

func (a *app) doctorCommand() *cobra.Command {
	var jsonOut bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the store: integrity, FTS indexes, orphans, markdown drift, permissions, hooks",
		Long: `Check the store and its surroundings and report each check as ok, warn or
fail: SQLite integrity_check and FTS5 integrity-check, orphaned rows, drift
between the markdown views and the store, store file permissions (no access
for other users), and whether Claude Code hooks are installed. Exits 1 when a
check fails; warnings do not change the exit code.`,
		Example: `  recall doctor
  recall doctor --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := a.open(c.Context()); err != nil {
				return err
			}
			results := a.diagnose(c.Context())
			failed := 0
			for _, r := range results {
				if r.Status == checkFail {
					failed++
				}
			}
			if jsonOut {
				if err := writeJSON(a.stdout, map[string]any{"ok": failed == 0, "checks": results}); err != nil {
					return err
				}
			} else {
				for _, r := range results {
					fprintf(a.stdout, "%-5s %s\n", r.Status, r.Name)
					for _, d := range r.Details {
						fprintf(a.stdout, "      %s\n", d)
					}
				}
			}
			if failed > 0 {
				return recall.Errorf(errCheckFailed, "%d check(s) failed: see the report above.", failed)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print the report as JSON")
	return c
}

// diagnose runs every check.
func (a *app) diagnose(ctx context.Context) []checkResult {
	var out []checkResult
	add := func(name string, fail bool, details ...string) {
		st := checkOK
		if fail {
			st = checkFail
		}
		out = append(out, checkResult{Name: name, Status: st, Details: details})
	}
	if err := a.db.Check(ctx); err != nil {
		add("integrity (integrity_check, FTS5 integrity-check)", true, err.Error())
	} else {
		add("integrity (integrity_check, FTS5 integrity-check)", false)
	}
	if orphans, err := a.db.Orphans(ctx); err != nil {
		add("orphans", true, err.Error())
	} else {
		var details []string
		for kind, n := range orphans {
			if n > 0 {
				details = append(details, fmt.Sprintf("%d %s", n, kind))
			}
		}
		sort.Strings(details)
		add("orphans", len(details) > 0, details...)
	}
	if drift, err := a.sessions().Drift(ctx); err != nil {
		add("markdown views", true, err.Error())
	} else {
		for i, d := range drift {
			drift[i] = d + " differs from the store (edited by hand?); `recall session start` rewrites it"
		}
		st := checkOK
		if len(drift) > 0 {
			st = checkWarn // the views are derived; the store is intact
		}
		out = append(out, checkResult{Name: "markdown views", Status: st, Details: drift})
	}
	perm := a.permissionProblems()
	add("store permissions", len(perm) > 0, perm...)
	out = append(out, a.hookCheck())
	out = append(out, a.gitCheck(ctx))
	return out
}

// permissionProblems lists store files other users can access.
func (a *app) permissionProblems() []string {
	var out []string
	paths := []string{a.store.Dir}
	for _, name := range []string{dbFile, dbFile + "-wal", dbFile + "-shm", configFile, hookLogFile} {
		paths = append(paths, filepath.Join(a.store.Dir, name))
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if mode := fi.Mode().Perm(); mode&0o077 != 0 {
			want := "0600"
			if fi.IsDir() {
				want = "0700"
			}
			out = append(out, fmt.Sprintf("%s is %04o: other users can read it; run chmod %s %s", p, mode, want, p))
		}
	}
	return out
}

// hookCheck reports where recall's Claude Code hooks are installed: the
// project's settings (beside a project store, or the working directory)
// and the user's. Missing hooks are a warning, not a failure.
func (a *app) hookCheck() checkResult {
	r := checkResult{Name: "claude code hooks", Status: checkWarn}
	var places []string
	if a.store.Kind == "project" {
		places = append(places, filepath.Join(filepath.Dir(a.store.Dir), ".claude", "settings.json"))
	}
	if wd, err := os.Getwd(); err == nil {
		places = append(places, filepath.Join(wd, ".claude", "settings.json"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		places = append(places, filepath.Join(home, ".claude", "settings.json"))
	}
	seen := map[string]bool{}
	for _, p := range places {
		if seen[p] {
			continue
		}
		seen[p] = true
		events, err := hook.Installed(p, hookCommandLine)
		if err != nil || len(events) == 0 {
			continue
		}
		r.Status = checkOK
		line := fmt.Sprintf("%s: %s", p, strings.Join(events, ", "))
		if len(events) < len(hook.Events) {
			line += fmt.Sprintf(" (%d of %d events; rerun `recall install claude`)", len(events), len(hook.Events))
		}
		r.Details = append(r.Details, line)
	}
	if r.Status == checkWarn {
		r.Details = []string{"not installed: run `recall install claude` (or --global) so sessions are captured"}
	}
	return r
}
