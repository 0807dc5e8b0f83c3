package main

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/forget"
	"github.com/spf13/cobra"
)

func (a *app) statsCommand() *cobra.Command {
	var jsonOut bool
	var now string
	c := &cobra.Command{
		Use:   "stats",
		Short: "Show rows per type and tier, store size, growth, and whether retention is worth enabling",
		Long: `Show what the store holds and how fast it grows: observations per type (with
each type's retention period), memories per tier, the size of the database
and its write-ahead log, free pages, rows added in the last 30 days with their
estimated size, and the size a year from now at that rate.

The last line says whether retention sweeps are worth enabling: past 100 MiB, when a year's growth at this rate gets there, or
when one type without a retention period carries most of the volume.`,
		Example: `  recall stats
  recall stats --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			t, err := a.openAt(c.Context(), now)
			if err != nil {
				return err
			}
			st, err := a.eng.Stats(c.Context(), t)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, st)
			}
			a.printStats(st, a.eng.RetentionPolicy())
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print the figures as JSON")
	c.Flags().StringVar(&now, "now", "", "measure growth up to `TIME` (default: the clock)")
	return c
}

func (a *app) printStats(st *recall.StoreStats, p recall.RetentionPolicy) {
	b := forget.Bytes
	if a.eng.Location.URL != "" {
		// A server has no WAL or free pages of the store's own, and sizes
		// tables, not namespaces.
		fprintf(a.stdout, "Store         %s: %s of tables and indexes (every namespace of the database)\n",
			a.eng.Location.Store(), b(st.DBBytes))
	} else {
		fprintf(a.stdout, "Store         %s: %s (database %s, WAL %s); %s free in %d pages\n",
			a.eng.Location.Dir, b(st.StoreBytes()), b(st.DBBytes), b(st.WALBytes), b(st.FreeBytes), st.FreePages)
	}
	w := table(a.stdout)
	state := "off"
	if p.Enabled {
		state = "on"
	}
	fprintf(w, "Observations\t%d\tretention %s\n", st.Observations, state)
	for _, t := range slices.Sorted(maps.Keys(st.ObservationsByType)) {
		keep := "never swept"
		if d := p.Days[t]; d > 0 {
			keep = fmt.Sprintf("%d days", d)
		}
		fprintf(w, "  %s\t%d\t%s\n", t, st.ObservationsByType[t], keep)
	}
	fprintf(w, "Memories\t%d\t%d versions\n", st.Memories, st.Versions)
	for _, t := range slices.Sorted(maps.Keys(st.MemoriesByTier)) {
		fprintf(w, "  %s\t%d\t\n", t, st.MemoriesByTier[t])
	}
	fprintf(w, "Rollups\t%d\tsummaries of closed time buckets ('recall tiers')\n", st.Rollups)
	for _, t := range recall.BucketTypes {
		if n := st.RollupsByType[t]; n > 0 {
			fprintf(w, "  %s\t%d\t\n", t, n)
		}
	}
	fprintf(w, "Sessions\t%d\t\n", st.Sessions)
	w.Flush()
	fprintf(a.stdout, "Last 30 days  +%d rows, about +%s\n", st.GrowthRows, b(st.GrowthBytes))
	fprintf(a.stdout, "In a year     about %s at that rate\n", b(st.ProjectedBytes))
	fprintf(a.stdout, "Last sweep    %s; last purge %s\n", whenOrNever(st.LastSweep), whenOrNever(st.LastPurge))
	fprintf(a.stdout, "%s\n", st.Advice)
}

func whenOrNever(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return t.Format("2006-01-02 15:04")
}
