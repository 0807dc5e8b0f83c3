package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/spf13/cobra"
)

func (a *app) rollupCommand() *cobra.Command {
	var nowFlag, explainID string
	var dryRun, jsonOut bool
	c := &cobra.Command{
		Use:   "rollup",
		Short: "Roll closed time buckets up the tiers: 4h, daily, weekly, monthly",
		Long: `Summarise every closed time bucket not yet rolled up. Raw
memories (unkeyed, unpinned, outside the working set) and observations are
grouped by type and key into 4h rollups and marked compacted; 4h rollups
make daily ones, daily make weekly (weeks start on Monday), weekly make
monthly. When entries about one key disagree the latest value wins, the
summary says what changed, and confidence falls; repeats raise it. A newer
rollup that contradicts an older one supersedes it.

Each bucket is written in its own transaction, so a run that is stopped
resumes where it stopped, and a second run changes nothing. Buckets are cut
in [rollup] timezone (UTC by default). --dry-run shows what would be
written without writing. --explain ID shows a rollup and its sources.`,
		Example: `  recall rollup
  recall rollup --dry-run --now 2026-03-01
  recall rollup --explain 9b7b691c-21c5-5482-a51c-917489b981ac --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			run, err := engine.RollupRunAt(dryRun, nowFlag, explainID != "", a.now())
			if err != nil {
				return err
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			if explainID != "" {
				return a.explainRollup(c.Context(), explainID, jsonOut)
			}
			rep, err := a.eng.RunRollups(c.Context(), run)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, rep)
			}
			a.printRollupReport(rep)
			return nil
		},
	}
	c.Flags().StringVar(&nowFlag, "now", "", "treat `TIME` as now: buckets ending after it stay open")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "show what would be written; write nothing")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	c.Flags().StringVar(&explainID, "explain", "", "show rollup `ID` and its sources")
	return c
}

func (a *app) printRollupReport(rep *recall.RollupReport) {
	var parts []string
	buckets, written := 0, 0
	for _, t := range recall.BucketTypes {
		parts = append(parts, fmt.Sprintf("%d %s", rep.Buckets[t], t))
		buckets += rep.Buckets[t]
		written += rep.Rollups[t]
	}
	verb := "Rolled up"
	if rep.DryRun {
		verb = "Would roll up"
	}
	if buckets == 0 {
		fprintf(a.stdout, "Nothing to roll up: every closed bucket is done.\n")
		return
	}
	fprintf(a.stdout, "%s %s buckets: %d rollups, %d raw entries compacted, %d older rollups superseded, %d old fine rollups pruned.\n",
		verb, strings.Join(parts, ", "), written, rep.Compacted, rep.Conflicts, rep.Pruned)
	if !rep.Done {
		fprintf(a.stdout, "Stopped early; run `recall rollup` again to finish.\n")
	}
	if rep.DryRun && len(rep.Written) > 0 {
		w := table(a.stdout)
		fprintf(w, "TYPE\tBUCKET\tCONF\tSUMMARY\n")
		for _, r := range rep.Written {
			fprintf(w, "%s\t%s\t%.2f\t%s\n", r.BucketType, r.BucketStart.Format("2006-01-02 15:04"), r.Confidence, oneLine(r.Summary, 90))
		}
		w.Flush()
	}
}

func (a *app) explainRollup(ctx context.Context, id string, jsonOut bool) error {
	r, err := a.eng.ExplainRollup(ctx, id)
	if err != nil {
		return err
	}
	if jsonOut {
		return writeJSON(a.stdout, r)
	}
	a.printRollup(r)
	return nil
}

// printRollup shows a rollup, its tally and its sources for people.
func (a *app) printRollup(r *recall.Rollup) {
	fprintf(a.stdout, "Rollup %s: %s bucket %s → %s\n", r.ID, r.BucketType, stamp(r.BucketStart), stamp(r.BucketEnd))
	key := r.Key
	if key == "" {
		key = "(none)"
	}
	fprintf(a.stdout, "Type %s, key %s, status %s, confidence %.3f\n", r.MemoryType, key, r.Status, r.Confidence)
	fprintf(a.stdout, "%d sources, %d raw entries, newest %s\n", r.SourceCount, r.Entries, stamp(r.LatestAt))
	fprintf(a.stdout, "Summary: %s\n\nValues (latest or most frequent first):\n", r.Summary)
	w := table(a.stdout)
	for _, v := range r.Values {
		fprintf(w, "  %d×\t%s\t%s\n", v.Count, stamp(v.Last), oneLine(v.Text, 70))
	}
	w.Flush()
	fprintf(a.stdout, "\nSources:\n")
	w = table(a.stdout)
	fprintf(w, "  KIND\tID\tAT\tTEXT\n")
	for _, s := range r.Sources {
		text := oneLine(s.Text, 70)
		if s.Missing {
			text = "(swept)"
		}
		fprintf(w, "  %s\t%s\t%s\t%s\n", s.Kind, s.ID, stamp(s.At), text)
	}
	w.Flush()
}
