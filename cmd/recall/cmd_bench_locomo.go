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
	var ks string
	var jsonOut bool
	var mode, configFile string
	c := &cobra.Command{
		Use:   "locomo FILE",
		Short: "Score retrieval on the LoCoMo conversations (recall of evidence turns)",
		Long: `Load each LoCoMo conversation into a fresh temporary store (one memory per
dialog turn, occurred_at = its session's time, the speaker and session in
metadata), ask every question through the same searcher as 'recall search'
(reference time: the conversation's last session), and report how many of
the question's evidence turns come back: R@k, All@5/10, SessAny@5, NDCG@10
and MRR per category. The headline line averages categories 1-4
(multi-hop, temporal, open-domain, single-hop); category 5 (adversarial)
is reported on its own line.

Ranking and the embedder follow config.toml: the file --config names, or
else the store's (as for every command); the report ends with the
settings used, so any [ranking] knob can be measured without a rebuild.

The data is CC BY-NC and not shipped; the development split lives at
../shared/data/locomo/locomo-dev.json relative to the repository.`,
		Example: `  recall bench locomo ../shared/data/locomo/locomo-dev.json
  recall bench locomo locomo10.json --k 1,5,10 --json
  recall bench locomo locomo10.json --config trial.toml`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			kv, err := bench.ParseKs(ks)
			if err != nil {
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
			rep, err := (&bench.Locomo{Product: a.benchProduct(cfg), Ks: kv, Mode: mode, Log: a.stderr}).Run(c.Context(), convs)
			if err != nil {
				return err
			}
			rep.Config["config_file"] = from
			if jsonOut {
				return writeJSON(a.stdout, rep)
			}
			rep.WriteText(a.stdout, kv)
			return nil
		},
	}
	c.Flags().StringVar(&ks, "k", "5,10,20", "report recall at these cut-offs `k1,k2,...`")
	c.Flags().BoolVar(&jsonOut, "json", false, "print the figures as JSON")
	c.Flags().StringVar(&mode, "mode", recall.ModeHybrid, "search `MODE`: hybrid, bm25 or vector")
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
