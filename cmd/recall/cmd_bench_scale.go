package main

import (
	"os"

	"github.com/recall-mem/recall/internal/bench"
	"github.com/spf13/cobra"
)

func (a *app) benchScaleCommand() *cobra.Command {
	var n, queries, coldRuns, budget int
	var seed uint64
	var embedder string
	var jsonOut, keep bool
	c := &cobra.Command{
		Use:   "scale",
		Short: "Measure ingest, search and context latency on a synthetic store",
		Long: `Build a fresh temporary store from a deterministic synthetic corpus
(sentence-like text over a Zipf vocabulary of 30,000 made-up words), then
measure, in this process and through the same services the CLI uses:

  ingest      memories/s for batched import (1,000 per transaction) and for
              single puts, embedding included (the configured default embedder)
  search      p50/p95/p99 ms for hybrid (what 'recall search' runs), BM25 only
              and the raw vector scan, over question-like queries of 3-8 words
  context     p50/p95/p99 ms for a context pack of --budget tokens
  store       bytes per memory on disk, peak RSS of this process
  cold start  wall time of a new 'recall search' process on the store

The store is deleted afterwards unless --keep. Figures depend on the machine
and on what else runs on it: quote medians from a quiet machine.`,
		Example: `  recall bench scale
  recall bench scale --memories 100000 --queries 500 --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if n < 1 || queries < 1 || budget < 1 {
				return usagef("--memories, --queries and --budget must be positive")
			}
			sc := &bench.Scale{Product: a.benchProduct(nil), Memories: n, Queries: queries, Seed: seed, Budget: budget, ColdRuns: coldRuns, Embedder: embedder}
			if f, ok := a.stderr.(*os.File); ok && isTerminal(f) {
				sc.Progress = bench.TermProgress(f)
			}
			rep, dir, err := sc.Run(c.Context())
			if dir != "" && !keep {
				defer os.RemoveAll(dir)
			} else if dir != "" {
				fprintf(a.stderr, "store kept at %s\n", dir)
			}
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, rep)
			}
			rep.WriteText(a.stdout)
			return nil
		},
	}
	c.Flags().IntVar(&n, "memories", 10000, "memories in the synthetic store")
	c.Flags().IntVar(&queries, "queries", 200, "queries to time for each search mode")
	c.Flags().IntVar(&budget, "budget", 2000, "token budget of the context packs")
	c.Flags().IntVar(&coldRuns, "cold-runs", 5, "new processes to time for cold start (0 skips)")
	c.Flags().Uint64Var(&seed, "seed", 1, "corpus seed")
	c.Flags().StringVar(&embedder, "embedder", "", "embedder of the temporary store (builtin, none, ...); default builtin")
	c.Flags().BoolVar(&keep, "keep", false, "keep the temporary store and print where it is")
	c.Flags().BoolVar(&jsonOut, "json", false, "print the figures as JSON")
	return c
}
