package main

import "github.com/spf13/cobra"

// benchCommand groups the benchmark programs; each area adds its own
// subcommand here.
func (a *app) benchCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "bench",
		Short: "Run a benchmark on a fresh temporary store and print its figures",
		Args:  cobra.NoArgs,
		RunE:  func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(a.benchRollupCommand())
	return c
}
