package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/locomo"
	"github.com/recall-mem/recall/sqlite"
	"github.com/spf13/cobra"
)

// locomoReport is the JSON output of bench locomo.
type locomoReport struct {
	Headline   locomo.Metrics         `json:"headline"`
	Categories map[int]locomo.Metrics `json:"categories"`
	Skipped    int                    `json:"skipped"`
	Dropped    int                    `json:"dropped_evidence"`
	Config     map[string]any         `json:"config"`
}

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
			kv, err := parseKs(ks)
			if err != nil {
				return err
			}
			convs, err := locomo.Load(args[0])
			if err != nil {
				return recall.Errorf(recall.EINVALID, "Cannot read LoCoMo data from %s: %v.", args[0], err)
			}
			cfg, from, err := a.benchConfig(configFile)
			if err != nil {
				return err
			}
			rep, err := a.runLocomo(c.Context(), convs, kv, mode, cfg)
			if err != nil {
				return err
			}
			rep.Config["config_file"] = from
			if jsonOut {
				return writeJSON(a.stdout, rep)
			}
			w := table(a.stdout)
			head := "CATEGORY\tN"
			for _, k := range kv {
				head += "\tR@" + strconv.Itoa(k)
			}
			fprintf(w, "%s\tAll@5\tAll@10\tSessAny@5\tNDCG@10\tMRR\n", head)
			row := func(name string, m locomo.Metrics) {
				fprintf(w, "%s\t%d", name, m.N)
				for _, k := range kv {
					fprintf(w, "\t%.3f", m.Recall[k])
				}
				fprintf(w, "\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", m.All5, m.All10, m.SessAny, m.NDCG10, m.MRR)
			}
			for cat := 1; cat <= 5; cat++ {
				if m, ok := rep.Categories[cat]; ok {
					row(strconv.Itoa(cat)+" "+categoryNames[cat], m)
				}
			}
			row("headline (1-4)", rep.Headline)
			w.Flush()
			cj, _ := json.Marshal(rep.Config)
			fprintf(a.stdout, "skipped %d questions without usable evidence, dropped %d unknown evidence ids; config %s\n", rep.Skipped, rep.Dropped, cj)
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

var categoryNames = map[int]string{1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}

func parseKs(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k <= 0 {
			return nil, usagef("invalid --k %q: give positive cut-offs like 5,10,20", s)
		}
		out = append(out, k)
	}
	for _, k := range []int{5, 10} { // All@5, All@10 and NDCG@10 need these depths
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// runLocomo loads every conversation into its own temporary store and asks
// its questions.
func (a *app) runLocomo(ctx context.Context, convs []*locomo.Conversation, ks []int, mode string, cfg *engine.Config) (*locomoReport, error) {
	rep := &locomoReport{Categories: map[int]locomo.Metrics{}}
	sums := map[int]*locomo.Metrics{}
	depth := max(ks[len(ks)-1], 20)
	for i, conv := range convs {
		fprintf(a.stderr, "conversation %d/%d (%s): %d turns, %d questions\n", i+1, len(convs), conv.ID, len(conv.Turns), len(conv.Questions))
		rep.Skipped += conv.Skipped
		rep.Dropped += conv.Dropped
		ranked, info, err := a.locomoConversation(ctx, conv, depth, mode, cfg)
		if err != nil {
			return nil, err
		}
		rep.Config = info
		for qi, q := range conv.Questions {
			s := locomo.Score(ranked[qi], q.Evidence, ks)
			if sums[q.Category] == nil {
				sums[q.Category] = &locomo.Metrics{Recall: map[int]float64{}}
			}
			sums[q.Category].Add(s)
		}
	}
	head := locomo.Metrics{Recall: map[int]float64{}}
	for cat, s := range sums {
		rep.Categories[cat] = s.Mean()
		if cat >= 1 && cat <= 4 {
			head.Add(*s)
		}
	}
	rep.Headline = head.Mean()
	return rep, nil
}

// locomoConversation returns, per question, the dialog ids of the hits.
func (a *app) locomoConversation(ctx context.Context, conv *locomo.Conversation, depth int, mode string, cfg *engine.Config) ([][]string, map[string]any, error) {
	dir, err := os.MkdirTemp("", "recall-locomo-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	db := sqlite.NewDB(filepath.Join(dir, engine.DBFile))
	if err := db.Open(); err != nil {
		return nil, nil, err
	}
	defer db.Close()
	mem := sqlite.NewMemoryService(db)
	e, inline, err := newEmbedder(cfg.Retrieval)
	if err != nil {
		return nil, nil, err
	}
	vec := sqlite.NewVectorService(db, e, chunk.Splitter{})
	vec.Inline = inline
	ms := make([]*recall.Memory, len(conv.Turns))
	for i, t := range conv.Turns {
		meta, _ := json.Marshal(map[string]any{"speaker": t.Speaker, "session": t.Session, "dia_id": t.ID})
		ms[i] = &recall.Memory{Content: t.Content(), Type: "dialog", OccurredAt: t.At, CreatedAt: t.At, Metadata: meta, Tags: []string{"session-" + strconv.Itoa(t.Session)}}
	}
	if _, err := mem.ImportMemories(ctx, ms); err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", conv.ID, err)
	}
	if !inline && mode != recall.ModeBM25 { // the turns are queued: embed them all before asking
		if err := vec.DrainQueue(ctx, 0); err != nil {
			return nil, nil, fmt.Errorf("embed %s: %w", conv.ID, err)
		}
	}
	dia := map[string]string{}
	all, _, err := mem.FindMemories(ctx, recall.MemoryFilter{})
	if err != nil {
		return nil, nil, err
	}
	for _, m := range all {
		var meta struct {
			DiaID string `json:"dia_id"`
		}
		_ = json.Unmarshal(m.Metadata, &meta)
		dia[m.ID] = meta.DiaID
	}
	s, info := a.eng.SearcherFor(mem, vec, nil, cfg)
	now := conv.Last()
	out := make([][]string, len(conv.Questions))
	for qi, q := range conv.Questions {
		hits, err := s.Search(ctx, recall.SearchQuery{Text: q.Text, Limit: depth, Mode: mode, Now: now})
		if err != nil {
			return nil, nil, fmt.Errorf("%s question %d: %w", conv.ID, qi+1, err)
		}
		// The list scored is the one a user sees: each hit, then the
		// turns shown under it, each taking a place in the top k.
		for _, h := range hits {
			out[qi] = append(out[qi], dia[h.Memory.ID])
			for _, c := range h.Context {
				out[qi] = append(out[qi], dia[c.Memory.ID])
			}
		}
	}
	return out, info, nil
}
