package main

import (
	"time"

	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/internal/bench"
	"github.com/spf13/cobra"
)

func (a *app) benchRollupCommand() *cobra.Command {
	ro := bench.Rollup{Product: a.benchProduct(nil), KeepDaily: engine.DefaultKeepDailyDays * 24 * time.Hour}
	var jsonOut bool
	c := &cobra.Command{
		Use:     "rollup",
		Short:   "Measure what rollups save: context tokens, stale values, store size",
		Long:    bench.RollupHelp,
		Example: bench.RollupExamples,
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if ro.Days < 14 {
				return usagef("--days must be at least 14")
			}
			res, err := ro.Run(c.Context())
			return a.benchPrint(res, err, jsonOut)
		},
	}
	c.Flags().IntVar(&ro.Days, "days", 180, "generate `N` days of history")
	c.Flags().IntVar(&ro.RetentionDays, "retention-days", 30, "sweep compacted raw entries older than `N` days")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}
