package main

import (
	"maps"
	"slices"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/prose"
	"github.com/spf13/cobra"
)

func (a *app) sweepCommand() *cobra.Command {
	var jsonOut, dryRun bool
	var now string
	c := &cobra.Command{
		Use:   "sweep",
		Short: "Apply the retention policy: delete observations past their type's period",
		Long: `Delete the observations that the retention policy in config.toml expires:

  [retention]
  enabled = true          # off by default: recall keeps everything
  [retention.days]
  file_read = 90          # per type; a type not listed is never swept
  search = 0              # 0 turns a default off

The default periods: user_prompt and command_error 730 days; file_write,
file_edit, session_start and session_end 365; command 180; file_read, search
and mcp_call 90. Observations already rolled up (status compacted) are swept
after [rollup] raw_retention_days (default 30) even with retention off, since
their rollups keep what they said; set it to 0 to keep them.

Pinned observations (landmarks: 'recall observation pin ID') and the sources
of rollups and syntheses are never swept. Sweeps do not use secure delete
(use 'recall purge' for secrets). Session starts sweep on their own when
retention is on and at least 100 observations are older than a day.`,
		Example: `  recall sweep --dry-run
  recall sweep --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			t, err := a.openAt(c.Context(), now)
			if err != nil {
				return err
			}
			rep, err := a.eng.SweepAt(c.Context(), t, dryRun)
			if err != nil {
				return err
			}
			if rep.Deleted > 0 && !dryRun {
				fprintf(a.stderr, "recall: sweep at %s: %s deleted\n", stamp(rep.At), prose.Plural(rep.Deleted, "observation", "observations"))
			}
			if jsonOut {
				return writeJSON(a.stdout, rep)
			}
			a.printSweep(rep)
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print the per-type counts as JSON")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "count what would be swept, delete nothing")
	c.Flags().StringVar(&now, "now", "", "sweep as of `TIME` (default: the clock)")
	return c
}

func (a *app) printSweep(rep *recall.SweepReport) {
	verb := "Swept"
	if rep.DryRun {
		verb = "Would sweep"
	}
	state := "retention on"
	if !rep.Enabled {
		state = "retention off: only rolled-up observations are swept; set enabled = true under [retention] to sweep by type"
	}
	fprintf(a.stdout, "%s %s (%s).\n", verb, prose.Plural(rep.Deleted, "observation", "observations"), state)
	if rep.Deleted == 0 {
		return
	}
	w := table(a.stdout)
	for _, t := range slices.Sorted(maps.Keys(rep.ByType)) {
		fprintf(w, "  %s\t%d\n", t, rep.ByType[t])
	}
	if rep.Compacted > 0 {
		fprintf(w, "  (rolled up)\t%d\n", rep.Compacted)
	}
	if rep.Sessions > 0 {
		fprintf(w, "  empty sessions\t%d\n", rep.Sessions)
	}
	w.Flush()
}
