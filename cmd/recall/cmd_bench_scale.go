package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/synth"
	"github.com/spf13/cobra"
)

// scaleReport is the JSON output of bench scale. The keys the issue names
// (memories, ingest_per_s, search_*_ms, context_ms, bytes_per_memory,
// peak_rss_bytes) stay stable; the others add detail.
type scaleReport struct {
	Memories   int         `json:"memories"`
	Queries    int         `json:"queries"`
	IngestPerS ingestRates `json:"ingest_per_s"`
	// EmbedPerS is how fast queued memories got their vectors after the
	// writes (embedders that do not embed inline); 0 when inline.
	EmbedPerS        float64        `json:"embed_per_s,omitempty"`
	SearchHybridMS   latency        `json:"search_hybrid_ms"`
	SearchBM25MS     latency        `json:"search_bm25_ms"`
	SearchVectorMS   latency        `json:"search_vector_ms"`
	ContextMS        *latency       `json:"context_ms"` // null when the app has no context builder
	VectorIndexMS    float64        `json:"vector_index_build_ms"`
	ColdStartMS      *latency       `json:"cold_start_ms,omitempty"`
	BytesPerMemory   float64        `json:"bytes_per_memory"`
	PeakRSSBytes     int64          `json:"peak_rss_bytes"`
	TargetHitAt10    float64        `json:"hybrid_target_at_10"` // share of queries whose source memory is in the top 10
	Config           map[string]any `json:"config"`
	SingleSample     int            `json:"single_put_sample"`
	ContextBudgetTok int            `json:"context_budget_tokens"`
}

type ingestRates struct {
	Batched float64 `json:"batched"`
	Single  float64 `json:"single"`
}

type latency struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

// percentiles summarises durations in milliseconds (nearest rank).
func percentiles(ds []time.Duration) latency {
	if len(ds) == 0 {
		return latency{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(p float64) float64 {
		i := int(p*float64(len(s))+0.5) - 1
		return float64(s[min(max(i, 0), len(s)-1)].Microseconds()) / 1000
	}
	return latency{P50: at(0.50), P95: at(0.95), P99: at(0.99)}
}

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
			rep, dir, err := a.runScale(c.Context(), n, queries, seed, budget, coldRuns, embedder)
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
			printScale(a.stdout, rep)
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

// runScale builds the store and measures it. It returns the store's
// directory so that the caller can remove it.
func (a *app) runScale(ctx context.Context, n, queries int, seed uint64, budget, coldRuns int, embedder string) (*scaleReport, string, error) {
	dir, err := os.MkdirTemp("", "recall-bench-scale-")
	if err != nil {
		return nil, "", err
	}
	if embedder != "" {
		conf := fmt.Sprintf("[retrieval]\nembedder = %q\n", embedder)
		if err := os.WriteFile(filepath.Join(dir, engine.ConfigFile), []byte(conf), 0o600); err != nil {
			return nil, dir, err
		}
	}
	b := newApp(nil, io.Discard, a.stderr)
	b.eng.StoreFlag = dir
	if err := b.openForWrite(ctx); err != nil {
		return nil, dir, err
	}
	defer b.close()
	rep := &scaleReport{Memories: n, Queries: queries, ContextBudgetTok: budget}
	e, _, _ := newEmbedder(b.eng.Config.Retrieval)
	rep.Config = map[string]any{"embedder": e.Model(), "dim": e.Dim(), "gomaxprocs": runtime.GOMAXPROCS(0), "go": runtime.Version(), "seed": seed}
	corpus := synth.New(seed, synth.DefaultVocab)
	progress := a.scaleProgress()

	// Ingest: all but a sample in batches, the sample one put at a time.
	single := min(max(n/20, 1), 1000)
	if n < 2 {
		single = 0
	}
	rep.SingleSample = single
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(i int) *recall.Memory {
		title, content := corpus.Memory(i)
		return &recall.Memory{Title: title, Content: content, OccurredAt: base.Add(time.Duration(i) * 10 * time.Minute), Tags: []string{fmt.Sprintf("t%d", i%50)}}
	}
	// Only the writes are timed, not making up the corpus.
	batched := n - single
	var spent time.Duration
	for lo := 0; lo < batched; lo += 1000 {
		ms := make([]*recall.Memory, 0, 1000)
		for i := lo; i < min(lo+1000, batched); i++ {
			ms = append(ms, mk(i))
		}
		start := time.Now()
		if _, err := b.eng.Memories().ImportMemories(ctx, ms); err != nil {
			return nil, dir, err
		}
		spent += time.Since(start)
		progress("ingest", lo+len(ms), n)
	}
	if batched > 0 {
		rep.IngestPerS.Batched = float64(batched) / spent.Seconds()
	}
	spent = 0
	for i := batched; i < n; i++ {
		m := mk(i)
		start := time.Now()
		if _, err := b.eng.Memories().PutMemory(ctx, m); err != nil {
			return nil, dir, err
		}
		spent += time.Since(start)
	}
	if single > 0 {
		rep.IngestPerS.Single = float64(single) / spent.Seconds()
	}
	progress("ingest", n, n)

	// An embedder off the write path (the built-in encoder) embeds the
	// queue afterwards, as a server's loop would.
	if b.eng.VectorStore() != nil && !b.eng.VectorStore().EmbedsInline() {
		start := time.Now()
		if err := b.eng.VectorStore().DrainQueue(ctx, 0); err != nil {
			return nil, dir, err
		}
		rep.EmbedPerS = float64(n) / time.Since(start).Seconds()
		progress("embed", n, n)
	}

	// The first vector search loads the index: timed on its own.
	start := time.Now()
	_, err = b.eng.VectorStore().SearchVectors(ctx, "warm up", 1)
	vectors := err == nil
	if err != nil && recall.ErrorCode(err) != recall.EUNAVAILABLE {
		return nil, dir, err
	}
	rep.VectorIndexMS = float64(time.Since(start).Microseconds()) / 1000

	qs := make([]string, queries)
	targets := make([]int, queries)
	for q := range qs {
		qs[q], targets[q] = corpus.Query(q, n)
	}
	now := base.Add(time.Duration(n) * 10 * time.Minute)
	var found int
	var lat []time.Duration
	timeAll := func(name string, fn func(q int) error) (latency, error) {
		lat = lat[:0]
		for q := range qs {
			t0 := time.Now()
			if err := fn(q); err != nil {
				return latency{}, fmt.Errorf("%s query %q: %w", name, qs[q], err)
			}
			lat = append(lat, time.Since(t0))
			if q%50 == 0 {
				progress(name, q, len(qs))
			}
		}
		return percentiles(lat), nil
	}
	search := func(mode string) func(int) error {
		return func(q int) error {
			hits, err := b.eng.Searcher().Search(ctx, recall.SearchQuery{Text: qs[q], Limit: 10, Mode: mode, Now: now})
			if mode == recall.ModeHybrid {
				title, _ := corpus.Memory(targets[q])
				for _, h := range hits {
					if h.Memory.Title == title {
						found++
						break
					}
				}
			}
			return err
		}
	}
	if rep.SearchBM25MS, err = timeAll("bm25", search(recall.ModeBM25)); err != nil {
		return nil, dir, err
	}
	if rep.SearchHybridMS, err = timeAll("hybrid", search(recall.ModeHybrid)); err != nil {
		return nil, dir, err
	}
	rep.TargetHitAt10 = float64(found) / float64(len(qs))
	if vectors {
		if rep.SearchVectorMS, err = timeAll("vector", func(q int) error {
			_, err := b.eng.VectorStore().SearchVectors(ctx, qs[q], 10)
			return err
		}); err != nil {
			return nil, dir, err
		}
	}
	cb := b.eng.ContextBuilder()
	if cb != nil {
		l, err := timeAll("context", func(q int) error {
			_, err := cb.BuildContext(ctx, recall.ContextRequest{Query: qs[q], Budget: budget, Now: now})
			return err
		})
		if err != nil {
			return nil, dir, err
		}
		rep.ContextMS = &l
	}
	rep.PeakRSSBytes = peakRSS()

	// Close so the WAL is checkpointed into the file before measuring it.
	b.close()
	rep.BytesPerMemory = float64(storeBytes(dir)) / float64(n)
	if coldRuns > 0 {
		l, err := coldStart(ctx, dir, qs, coldRuns)
		if err != nil {
			return nil, dir, err
		}
		rep.ColdStartMS = &l
	}
	progress("", 0, 0)
	return rep, dir, nil
}

// coldStart times new processes that open the store and run one search.
func coldStart(ctx context.Context, dir string, qs []string, runs int) (latency, error) {
	exe, err := os.Executable()
	if err != nil {
		return latency{}, err
	}
	var ds []time.Duration
	for i := 0; i < runs; i++ {
		cmd := exec.CommandContext(ctx, exe, "--store", dir, "search", "--json", qs[i%len(qs)])
		cmd.Args[0] = "recall" // the name the binary (or a test harness) runs as
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			return latency{}, fmt.Errorf("cold start: %v: %s", err, out)
		}
		ds = append(ds, time.Since(t0))
	}
	return percentiles(ds), nil
}

// storeBytes is the size of the database and its WAL.
func storeBytes(dir string) int64 {
	var total int64
	for _, name := range []string{engine.DBFile, engine.DBFile + "-wal"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil {
			total += fi.Size()
		}
	}
	return total
}

// scaleProgress reports phases on stderr when it is a terminal.
func (a *app) scaleProgress() func(phase string, done, total int) {
	f, ok := a.stderr.(*os.File)
	if !ok || !isTerminal(f) {
		return func(string, int, int) {}
	}
	return func(phase string, done, total int) {
		if phase == "" {
			fmt.Fprint(f, "\r\033[K")
			return
		}
		fmt.Fprintf(f, "\r\033[K%s %d/%d", phase, done, total)
	}
}

func printScale(w io.Writer, r *scaleReport) {
	row := func(name string, l latency) {
		fprintf(w, "%-22s p50 %7.2f ms   p95 %7.2f ms   p99 %7.2f ms\n", name, l.P50, l.P95, l.P99)
	}
	fprintf(w, "memories               %d (%d queries, embedder %v, %v cores)\n", r.Memories, r.Queries, r.Config["embedder"], r.Config["gomaxprocs"])
	fprintf(w, "ingest batched         %.0f memories/s\n", r.IngestPerS.Batched)
	fprintf(w, "ingest single put      %.0f memories/s (%d puts)\n", r.IngestPerS.Single, r.SingleSample)
	if r.EmbedPerS > 0 {
		fprintf(w, "embedding (queued)     %.0f memories/s, after the writes\n", r.EmbedPerS)
	}
	fprintf(w, "vector index build     %.1f ms\n", r.VectorIndexMS)
	row("search hybrid", r.SearchHybridMS)
	row("search bm25", r.SearchBM25MS)
	row("search vector (raw)", r.SearchVectorMS)
	if r.ContextMS != nil {
		row(fmt.Sprintf("context (%d tokens)", r.ContextBudgetTok), *r.ContextMS)
	} else {
		fprintf(w, "context                not wired\n")
	}
	if r.ColdStartMS != nil {
		row("cold start (search)", *r.ColdStartMS)
	}
	fprintf(w, "store                  %.0f bytes/memory\n", r.BytesPerMemory)
	fprintf(w, "peak RSS               %.1f MiB\n", float64(r.PeakRSSBytes)/(1<<20))
	fprintf(w, "hybrid target@10       %.3f\n", r.TargetHitAt10)
}
