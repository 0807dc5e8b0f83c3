package main

import (
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
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
			results, err := a.eng.Doctor(c.Context())
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
