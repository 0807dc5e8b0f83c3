package main

import (
	"github.com/recall-mem/recall/internal/bench"
	"github.com/spf13/cobra"
)

func (a *app) benchHookCommand() *cobra.Command {
	var n, runs int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "hook",
		Short: "Time `recall hook claude` processes on a store of N observations",
		Long: `Build a temporary store with N synthetic observations (and some sessions
and pins), then spawn this binary as 'recall hook claude' R times for a
PostToolUse payload and R times for a SessionStart payload, and report wall
time per process (p50, p95, max), start-up included. Targets at 100,000
observations: PostToolUse p95 at most 25 ms, SessionStart at most 60 ms.`,
		Example: `  recall bench hook --observations 100000 --runs 50`,
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if n < 0 || runs < 1 {
				return usagef("--observations must be at least 0 and --runs at least 1")
			}
			h := &bench.Hook{Product: a.benchProduct(nil), Observations: n, Runs: runs, LogFile: hookLogFile, Log: a.stderr}
			res, err := h.Run(c.Context())
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
	c.Flags().IntVar(&n, "observations", 100000, "observations in the store (`N`)")
	c.Flags().IntVar(&runs, "runs", 30, "processes to time per event (`R`)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}
