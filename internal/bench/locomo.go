package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/internal/locomo"
	"github.com/recall-mem/recall/sqlite"
)

// LocomoHelp is the long help of 'recall bench locomo': what the benchmark does
// and measures, kept beside the code that does it.
const LocomoHelp = `Load each LoCoMo conversation into a fresh temporary store (one memory per
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

With --store postgres://…, each conversation is loaded into a new
namespace of that server (bench-locomo-…), deleted afterwards, instead of
a temporary SQLite store.

The data is CC BY-NC and not shipped; the development split lives at
../shared/data/locomo/locomo-dev.json relative to the repository.`

// LocomoExamples are the examples of 'recall bench locomo'.
const LocomoExamples = `  recall bench locomo ../shared/data/locomo/locomo-dev.json
  recall --store postgres://recall@db/recall bench locomo locomo10.json
  recall bench locomo locomo10.json --k 1,5,10 --json
  recall bench locomo locomo10.json --config trial.toml`

// Locomo configures a run over LoCoMo conversations.
type Locomo struct {
	Product Product   // DBFile, Embedder and Searcher
	Ks      []int     // recall cut-offs, from ParseKs
	Mode    string    // search mode: hybrid, bm25 or vector
	Log     io.Writer // a line per conversation
}

// LocomoReport is the JSON output of bench locomo.
type LocomoReport struct {
	Headline   locomo.Metrics         `json:"headline"`
	Categories map[int]locomo.Metrics `json:"categories"`
	Skipped    int                    `json:"skipped"`
	Dropped    int                    `json:"dropped_evidence"`
	Config     map[string]any         `json:"config"`

	ks []int // the cut-offs of the run, the columns of WriteText
}

var categoryNames = map[int]string{1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}

// ParseKs reads --k: positive cut-offs, always including 5 and 10.
func ParseKs(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k <= 0 {
			return nil, fmt.Errorf("invalid --k %q: give positive cut-offs like 5,10,20", s)
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

// Run loads every conversation into its own temporary store and asks its
// questions.
func (l *Locomo) Run(ctx context.Context, convs []*locomo.Conversation) (*LocomoReport, error) {
	ks := l.Ks
	rep := &LocomoReport{Categories: map[int]locomo.Metrics{}, ks: ks}
	sums := map[int]*locomo.Metrics{}
	depth := max(ks[len(ks)-1], 20)
	for i, conv := range convs {
		fmt.Fprintf(l.Log, "conversation %d/%d (%s): %d turns, %d questions\n", i+1, len(convs), conv.ID, len(conv.Turns), len(conv.Questions))
		rep.Skipped += conv.Skipped
		rep.Dropped += conv.Dropped
		ranked, info, err := l.conversation(ctx, conv, depth)
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

// conversation returns, per question, the dialog ids of the hits.
func (l *Locomo) conversation(ctx context.Context, conv *locomo.Conversation, depth int) ([][]string, map[string]any, error) {
	e, inline, err := l.Product.Embedder()
	if err != nil {
		return nil, nil, err
	}
	st, remove, err := l.scratch(ctx, recall.StoreOptions{Embedding: &recall.EmbeddingOptions{Embedder: e, Chunker: chunk.Splitter{}, Inline: inline}})
	if err != nil {
		return nil, nil, err
	}
	defer remove()
	mem, vec := st.Memories(), st.Vectors()
	ms := make([]*recall.Memory, len(conv.Turns))
	for i, t := range conv.Turns {
		meta, _ := json.Marshal(map[string]any{"speaker": t.Speaker, "session": t.Session, "dia_id": t.ID})
		ms[i] = &recall.Memory{Content: t.Content(), Type: "dialog", OccurredAt: t.At, CreatedAt: t.At, Metadata: meta, Tags: []string{"session-" + strconv.Itoa(t.Session)}}
	}
	if _, err := mem.ImportMemories(ctx, ms); err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", conv.ID, err)
	}
	if !inline && l.Mode != recall.ModeBM25 { // the turns are queued: embed them all before asking
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
	s, info := l.Product.Searcher(mem, vec)
	now := conv.Last()
	out := make([][]string, len(conv.Questions))
	for qi, q := range conv.Questions {
		hits, err := s.Search(ctx, recall.SearchQuery{Text: q.Text, Limit: depth, Mode: l.Mode, Now: now})
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

// scratch opens the empty store of one conversation: the Product's, or a
// SQLite store in a temporary directory.
func (l *Locomo) scratch(ctx context.Context, o recall.StoreOptions) (recall.Store, func(), error) {
	if l.Product.Scratch != nil {
		return l.Product.Scratch(ctx, o)
	}
	dir, err := os.MkdirTemp("", "recall-locomo-")
	if err != nil {
		return nil, nil, err
	}
	st, err := sqlite.OpenStore(filepath.Join(dir, l.Product.DBFile), o)
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return st, func() { st.Close(); os.RemoveAll(dir) }, nil
}

// WriteText prints the report as a table, one row per category, recall
// at the run's cut-offs.
func (r *LocomoReport) WriteText(out io.Writer) {
	ks := r.ks
	w := table(out)
	head := "CATEGORY\tN"
	for _, k := range ks {
		head += "\tR@" + strconv.Itoa(k)
	}
	fmt.Fprintf(w, "%s\tAll@5\tAll@10\tSessAny@5\tNDCG@10\tMRR\n", head)
	row := func(name string, m locomo.Metrics) {
		fmt.Fprintf(w, "%s\t%d", name, m.N)
		for _, k := range ks {
			fmt.Fprintf(w, "\t%.3f", m.Recall[k])
		}
		fmt.Fprintf(w, "\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", m.All5, m.All10, m.SessAny, m.NDCG10, m.MRR)
	}
	for cat := 1; cat <= 5; cat++ {
		if m, ok := r.Categories[cat]; ok {
			row(strconv.Itoa(cat)+" "+categoryNames[cat], m)
		}
	}
	row("headline (1-4)", r.Headline)
	w.Flush()
	cj, _ := json.Marshal(r.Config)
	fmt.Fprintf(out, "skipped %d questions without usable evidence, dropped %d unknown evidence ids; config %s\n", r.Skipped, r.Dropped, cj)
}
