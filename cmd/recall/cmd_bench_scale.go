package main

import (
	"os"

	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/internal/bench"
	"github.com/spf13/cobra"
)

func (a *app) benchScaleCommand() *cobra.Command {
	sc := bench.Scale{Product: a.benchProduct(nil), ConfigFile: engine.ConfigFile}
	var jsonOut, keep bool
	c := &cobra.Command{
		Use:     "scale",
		Short:   "Measure ingest, search and context latency on a synthetic store",
		Long:    bench.ScaleHelp,
		Example: bench.ScaleExamples,
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if sc.Memories < 1 || sc.Queries < 1 || sc.Budget < 1 {
				return usagef("--memories, --queries and --budget must be positive")
			}
			if f, ok := a.stderr.(*os.File); ok && isTerminal(f) {
				sc.Progress = bench.TermProgress(f)
			}
			rep, dir, err := sc.Run(c.Context())
			if dir != "" && !keep {
				defer os.RemoveAll(dir)
			} else if dir != "" {
				fprintf(a.stderr, "store kept at %s\n", dir)
			}
			return a.benchPrint(rep, err, jsonOut)
		},
	}
	c.Flags().IntVar(&sc.Memories, "memories", 10000, "memories in the synthetic store")
	c.Flags().IntVar(&sc.Queries, "queries", 200, "queries to time for each search mode")
	c.Flags().IntVar(&sc.Budget, "budget", 2000, "token budget of the context packs")
	c.Flags().IntVar(&sc.ColdRuns, "cold-runs", 5, "new processes to time for cold start (0 skips)")
	c.Flags().IntVar(&sc.Clients, "clients", 20, "concurrent HTTP clients against a 'recall serve' process (0 skips)")
	c.Flags().BoolVar(&sc.ImportRSS, "import-rss", true, "measure the peak memory of 'recall import' of the store's export")
	c.Flags().Uint64Var(&sc.Seed, "seed", 1, "corpus seed")
	c.Flags().StringVar(&sc.Embedder, "embedder", "", "embedder of the temporary store (builtin, none, ...); default builtin")
	c.Flags().BoolVar(&keep, "keep", false, "keep the temporary store and print where it is")
	c.Flags().BoolVar(&jsonOut, "json", false, "print the figures as JSON")
	return c
}
