package main

import (
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/internal/bench"
	"github.com/spf13/cobra"
)

func (a *app) benchHookCommand() *cobra.Command {
	h := bench.Hook{Product: a.benchProduct(nil), LogFile: engine.HookLogFile, Log: a.stderr}
	var jsonOut bool
	c := &cobra.Command{
		Use:     "hook",
		Short:   "Time `recall hook claude` processes on a store of N observations",
		Long:    bench.HookHelp,
		Example: bench.HookExamples,
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if h.Observations < 0 || h.Runs < 1 {
				return usagef("--observations must be at least 0 and --runs at least 1")
			}
			res, err := h.Run(c.Context())
			return a.benchPrint(res, err, jsonOut)
		},
	}
	c.Flags().IntVar(&h.Observations, "observations", 100000, "observations in the store (`N`)")
	c.Flags().IntVar(&h.Runs, "runs", 30, "processes to time per event (`R`)")
	c.Flags().BoolVar(&h.RolledUp, "rolled-up", false, "run 'recall rollup' after seeding (a store whose upkeep keeps up)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}
