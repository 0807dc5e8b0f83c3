package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/internal/bench"
	"github.com/spf13/cobra"
)

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

// benchProduct is the seam between the harness and this program: the
// parts the benchmarks measure, built as every command builds them. cfg
// chooses the embedder and the searcher's settings; benchmarks that do not
// use them may pass nil.
func (a *app) benchProduct(cfg *engine.Config) bench.Product {
	return bench.Product{
		DBFile:   engine.DBFile,
		Embedder: func() (recall.Embedder, bool, error) { return newEmbedder(cfg.Retrieval) },
		Searcher: bench.ProductSearcher(a.eng.SearcherFor, cfg),
		Open:     a.benchOpen,
	}
}

// benchOpen opens a new store in dir as the commands that write do, with
// its config.toml naming embedder when one is given.
func (a *app) benchOpen(ctx context.Context, dir, embedder string) (*bench.Store, error) {
	conf := ""
	if embedder != "" {
		conf = fmt.Sprintf("[retrieval]\nembedder = %q\n", embedder)
	}
	// A server's store (--store postgres://…) keeps the memories; the
	// directory keeps the config that names it.
	if engine.IsStoreURL(a.eng.StoreFlag) {
		conf += fmt.Sprintf("[store]\nurl = %q\n", a.eng.StoreFlag)
	}
	if conf != "" {
		if err := os.WriteFile(filepath.Join(dir, engine.ConfigFile), []byte(conf), 0o600); err != nil {
			return nil, err
		}
	}
	b := newApp(nil, io.Discard, a.stderr)
	b.eng.StoreFlag = dir
	if err := b.eng.OpenForWrite(ctx); err != nil {
		return nil, err
	}
	e, _, _ := newEmbedder(b.eng.Config.Retrieval)
	return &bench.Store{Memories: b.eng.Memories(), Vectors: b.eng.VectorStore(), Search: b.eng.Searcher(), Context: b.eng.ContextBuilder(), Embedder: e, Close: b.close}, nil
}

// benchPrint prints a benchmark's report, as JSON with --json, unless the
// run failed.
func (a *app) benchPrint(rep interface{ WriteText(io.Writer) }, err error, jsonOut bool) error {
	if err != nil {
		return err
	}
	if jsonOut {
		return writeJSON(a.stdout, rep)
	}
	rep.WriteText(a.stdout)
	return nil
}
