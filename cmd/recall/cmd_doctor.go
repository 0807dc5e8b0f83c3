package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/hook"
	"github.com/spf13/cobra"
)

// errCheckFailed is the code of doctor's error: exit 1, like any failed
// check.
const errCheckFailed = "check_failed"

func (a *app) doctorCommand() *cobra.Command {
	var jsonOut bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the store: integrity, FTS indexes, orphans, markdown drift, permissions, hooks",
		Long: `Check the store and its surroundings and grade each check ok, info, warn or
fail: the database and write-ahead log files byte by byte (before opening,
so that damage is reported rather than discarded), SQLite integrity_check
and FTS5 integrity-check, orphaned rows, drift between the markdown views and
the store, the embedding queue and the provider's last error, store file permissions (no access for other users), and whether
Claude Code hooks are installed. A damaged store is still checked, and the
report says how to restore or salvage it. Exits 1 when a check fails; info
and warnings do not change the exit code.`,
		Example: `  recall doctor
  recall doctor --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			results, err := a.eng.Doctor(c.Context(), a.hookCheck)
			if err != nil {
				return err
			}
			failed := 0
			for _, r := range results {
				if r.Status == engine.CheckFail {
					failed++
				}
			}
			if jsonOut {
				if err := writeJSON(a.stdout, map[string]any{"ok": failed == 0, "checks": results, "grades": engine.Grades}); err != nil {
					return err
				}
			} else {
				for _, r := range results {
					fprintf(a.stdout, "%-5s %s\n", r.Status, r.Name)
					for _, d := range r.Details {
						fprintf(a.stdout, "      %s\n", d)
					}
				}
				fprintf(a.stdout, "\ngrades:\n")
				for _, g := range engine.Grades {
					fprintf(a.stdout, "  %-5s %s\n", g.Status, g.Meaning)
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

// hookCheck reports where recall's Claude Code hooks are installed: the
// project's settings (beside a project store, or the working directory)
// and the user's. Missing hooks are a warning, not a failure.
func (a *app) hookCheck() engine.Check {
	r := engine.Check{Name: "claude code hooks", Status: engine.CheckWarn}
	var places []string
	if a.eng.Location.Kind == "project" {
		places = append(places, filepath.Join(filepath.Dir(a.eng.Location.Dir), ".claude", "settings.json"))
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
		r.Status = engine.CheckOK
		line := fmt.Sprintf("%s: %s", p, strings.Join(events, ", "))
		if len(events) < len(hook.Events) {
			line += fmt.Sprintf(" (%d of %d events; rerun `recall install claude`)", len(events), len(hook.Events))
		}
		r.Details = append(r.Details, line)
	}
	if r.Status == engine.CheckWarn {
		r.Details = []string{"not installed: run `recall install claude` (or --global) so sessions are captured"}
	}
	return r
}
