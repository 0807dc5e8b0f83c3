package main

import "github.com/spf13/cobra"

// benchCommand groups the benchmark programs; each area adds its own
// subcommand here.
func (a *app) benchCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "bench",
		Short: "Run a benchmark on a fresh temporary store and print its figures",
		Long: `Benchmarks are programs that print figures, never pass/fail tests:
  locomo  retrieval quality on the LoCoMo conversations (docs/retrieval.md)
  scale   ingest, search and context latency, size and memory at scale
  hook    wall and CPU time of hook processes (docs/capture.md)
  rollup  tokens, contradictions and store size with and without rollups (docs/rollups.md)`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(a.benchLocomoCommand(), a.benchScaleCommand(), a.benchHookCommand(), a.benchRollupCommand())
	return c
}
