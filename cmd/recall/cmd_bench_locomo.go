package main

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/internal/bench"
	"github.com/recall-mem/recall/internal/locomo"
	"github.com/spf13/cobra"
)

func (a *app) benchLocomoCommand() *cobra.Command {
	l := bench.Locomo{Log: a.stderr}
	var ks, configFile string
	var jsonOut bool
	c := &cobra.Command{
		Use:     "locomo FILE",
		Short:   "Score retrieval on the LoCoMo conversations (recall of evidence turns)",
		Long:    bench.LocomoHelp,
		Example: bench.LocomoExamples,
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			var err error
			if l.Ks, err = bench.ParseKs(ks); err != nil {
				return usagef("%v", err)
			}
			convs, err := locomo.Load(args[0])
			if err != nil {
				return recall.Errorf(recall.EINVALID, "Cannot read LoCoMo data from %s: %v.", args[0], err)
			}
			cfg, from, err := a.benchConfig(configFile)
			if err != nil {
				return err
			}
			l.Product = a.benchProduct(cfg)
			server := engine.IsStoreURL(a.eng.StoreFlag)
			if server {
				l.Product.Scratch = a.serverScratch(a.eng.StoreFlag)
			}
			rep, err := l.Run(c.Context(), convs)
			if err == nil {
				rep.Config["config_file"] = from
				if server {
					rep.Config["store"] = recall.RedactURL(a.eng.StoreFlag)
				}
			}
			return a.benchPrint(rep, err, jsonOut)
		},
	}
	c.Flags().StringVar(&ks, "k", "5,10,20", "report recall at these cut-offs `k1,k2,...`")
	c.Flags().BoolVar(&jsonOut, "json", false, "print the figures as JSON")
	c.Flags().StringVar(&l.Mode, "mode", recall.ModeHybrid, "search `MODE`: hybrid, bm25 or vector")
	c.Flags().StringVar(&configFile, "config", "", "read [ranking] and [retrieval] from `FILE` instead of the store's config.toml")
	return c
}

// serverScratch returns the Product.Scratch of a benchmark run on the
// server rawURL names: each store is a new namespace (bench-locomo- and
// random hex digits, whatever namespace the URL names), deleted when the
// benchmark is done with it, even after a failure.
func (a *app) serverScratch(rawURL string) func(context.Context, recall.StoreOptions) (recall.Store, func(), error) {
	return func(ctx context.Context, o recall.StoreOptions) (recall.Store, func(), error) {
		scratch, ns, err := benchNamespace(rawURL, "bench-locomo-")
		if err != nil {
			return nil, nil, err
		}
		st, err := backend().Backend.OpenStore(scratch, o)
		if err != nil {
			return nil, nil, err
		}
		return st, func() {
			st.Close()
			// A context of its own: the run's may be what ended it.
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
			defer cancel()
			if err := dropServerNamespace(dctx, scratch); err != nil {
				fprintf(a.stderr, "recall: the benchmark's namespace %s was not deleted: %s\n", ns, recall.ErrorMessage(err))
			} else {
				fprintf(a.stderr, "namespace %s deleted\n", ns)
			}
		}, nil
	}
}

// benchConfig returns the configuration a benchmark runs with and the file
// it came from ("" for the defaults): --config FILE, or the store's
// config.toml when there is one.
func (a *app) benchConfig(file string) (*engine.Config, string, error) {
	if file != "" {
		if _, err := os.Stat(file); err != nil {
			return nil, "", recall.Errorf(recall.EINVALID, "Cannot read --config %s: %v. Give the path of a config.toml.", file, err)
		}
		cfg, err := engine.LoadConfig(file)
		return cfg, file, err
	}
	if a.eng.Config != nil {
		return a.eng.Config, filepath.Join(a.eng.Location.Dir, engine.ConfigFile), nil
	}
	loc, err := engine.ResolveStore(a.eng.StoreFlag, a.eng.GlobalFlag)
	if err != nil {
		return engine.DefaultConfig(), "", nil // no store: the defaults
	}
	path := filepath.Join(loc.Dir, engine.ConfigFile)
	if _, err := os.Stat(path); err != nil {
		return engine.DefaultConfig(), "", nil
	}
	cfg, err := engine.LoadConfig(path)
	return cfg, path, err
}
