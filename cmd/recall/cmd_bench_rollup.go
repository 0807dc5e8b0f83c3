package main

import (
	"time"

	"github.com/recall-mem/recall/internal/bench"
	"github.com/spf13/cobra"
)

func (a *app) benchRollupCommand() *cobra.Command {
	var days, retention int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "rollup",
		Short: "Measure what rollups save: context tokens, stale values, store size",
		Long: `Generate a deterministic stream of DAYS days (preferences that change,
facts that repeat, unkeyed notes and command observations as noise) into two
fresh temporary stores. One runs the rollup job every day and sweeps
compacted raw entries older than the raw retention; the other keeps raw
entries only. Then it measures, for every tracked key:

  search  the top 10 hits for the key's name, counting the hits about it;
  inject  the context that carries every key with no query: every raw
          entry about it without rollups, the rollups section with them;

reporting tokens (estimate: bytes / 4), stale values shown as current, and
whether the current value is there; and the raw row count and live bytes
of both stores over time.`,
		Example: `  recall bench rollup
  recall bench rollup --days 365 --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if days < 14 {
				return usagef("--days must be at least 14")
			}
			ro := &bench.Rollup{Product: a.benchProduct(nil), Days: days, RetentionDays: retention, KeepDaily: defaultKeepDailyDays * 24 * time.Hour}
			res, err := ro.Run(c.Context())
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, res)
			}
			res.WriteText(a.stdout)
			return nil
		},
	}
	c.Flags().IntVar(&days, "days", 180, "generate `N` days of history")
	c.Flags().IntVar(&retention, "retention-days", 30, "sweep compacted raw entries older than `N` days")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}
