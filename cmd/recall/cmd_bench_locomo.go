package main

import (
	"os"
	"path/filepath"

	"github.com/recall-mem/recall"
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
			rep, err := l.Run(c.Context(), convs)
			if err == nil {
				rep.Config["config_file"] = from
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

// benchConfig returns the configuration a benchmark runs with and the file
// it came from ("" for the defaults): --config FILE, or the store's
// config.toml when there is one.
func (a *app) benchConfig(file string) (*Config, string, error) {
	if file != "" {
		if _, err := os.Stat(file); err != nil {
			return nil, "", recall.Errorf(recall.EINVALID, "Cannot read --config %s: %v. Give the path of a config.toml.", file, err)
		}
		cfg, err := loadConfig(file)
		return cfg, file, err
	}
	if a.cfg != nil {
		return a.cfg, filepath.Join(a.store.Dir, configFile), nil
	}
	loc, err := resolveStore(a.storeFlag, a.globalFlag)
	if err != nil {
		return defaultConfig(), "", nil // no store: the defaults
	}
	path := filepath.Join(loc.Dir, configFile)
	if _, err := os.Stat(path); err != nil {
		return defaultConfig(), "", nil
	}
	cfg, err := loadConfig(path)
	return cfg, path, err
}
