package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/internal/bench"
	"github.com/spf13/cobra"
)

func (a *app) benchScaleCommand() *cobra.Command {
	sc := bench.Scale{Product: a.benchProduct(nil), ConfigFile: engine.ConfigFile, Bulk: bulkWriteGC}
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
			if engine.IsStoreURL(a.eng.StoreFlag) {
				return a.benchScaleServer(c.Context(), &sc, keep, jsonOut)
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
	c.Flags().BoolVar(&sc.ImportRSS, "import-rss", true, "measure the peak memory of 'recall import' of the store's export (not on a server)")
	c.Flags().BoolVar(&sc.IngestOnly, "ingest-only", false, "stop after the writes: report the ingest rates, bytes per memory and peak RSS only")
	c.Flags().Uint64Var(&sc.Seed, "seed", 1, "corpus seed")
	c.Flags().StringVar(&sc.Embedder, "embedder", "", "embedder of the temporary store (builtin, none, ...); default builtin")
	c.Flags().BoolVar(&keep, "keep", false, "keep the temporary store (and a server's namespace) and print where it is")
	c.Flags().BoolVar(&jsonOut, "json", false, "print the figures as JSON")
	return c
}

// benchScaleServer runs the scale benchmark on the server --store names,
// in a namespace of its own (bench-scale-…, whatever namespace the URL
// names), which is dropped afterwards unless keep. Bytes per memory are
// the growth of the store's tables and indexes over the run: exact on a
// database nothing else writes to meanwhile.
func (a *app) benchScaleServer(ctx context.Context, sc *bench.Scale, keep, jsonOut bool) error {
	server, ns, err := benchNamespace(a.eng.StoreFlag, "bench-scale-")
	if err != nil {
		return err
	}
	// The import measurement would load the export into a store naming
	// the same server and namespace: it measures directories only.
	sc.ImportRSS = false
	before, err := serverBytes(server)
	if err != nil {
		return err
	}
	a.eng.StoreFlag = server // the temporary store directory names it
	rep, dir, err := sc.Run(ctx)
	if dir != "" {
		defer os.RemoveAll(dir) // only the config naming the server
	}
	if err == nil {
		// Measured before the drop, which autovacuum may follow by
		// truncating the tables' emptied ends.
		after, berr := serverBytes(server)
		if berr != nil {
			err = berr
		} else {
			rep.BytesPerMemory = float64(after-before) / float64(rep.Memories)
		}
	}
	if !keep {
		// Dropped even after a failed run, with a context of its own:
		// the run's may be what ended it.
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
		defer cancel()
		if derr := dropServerNamespace(dctx, server); derr != nil {
			fprintf(a.stderr, "recall: the benchmark's namespace %s was not dropped: %s\n", ns, recall.ErrorMessage(derr))
		} else {
			fprintf(a.stderr, "namespace %s dropped\n", ns)
		}
	} else {
		fprintf(a.stderr, "namespace %s kept: %s\n", ns, recall.RedactURL(server))
	}
	return a.benchPrint(rep, err, jsonOut)
}

// benchNamespace returns rawURL naming a new namespace, prefix and random
// hex digits (whatever namespace the URL names), and that namespace.
func benchNamespace(rawURL, prefix string) (string, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", "", recall.Errorf(recall.EINVALID, "Invalid store URL %s.", recall.RedactURL(rawURL))
	}
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	ns := prefix + hex.EncodeToString(b)
	q := u.Query()
	q.Set("namespace", ns)
	u.RawQuery = q.Encode()
	return u.String(), ns, nil
}

// serverBytes is the size of a server's store tables with their indexes
// (every namespace of the database).
func serverBytes(server string) (int64, error) {
	st, err := backend().Backend.OpenStore(server, recall.StoreOptions{})
	if err != nil {
		return 0, err
	}
	defer st.Close()
	stats, err := st.Forgetting().StoreStats(context.Background(), time.Now())
	if err != nil {
		return 0, err
	}
	return stats.DBBytes, nil
}
