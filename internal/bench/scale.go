package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/synth"
)

// ScaleHelp is the long help of 'recall bench scale': what the benchmark does
// and measures, kept beside the code that does it.
const ScaleHelp = `Build a fresh temporary store from a deterministic synthetic corpus
(sentence-like text over a Zipf vocabulary of 30,000 made-up words), then
measure, in this process and through the same services the CLI uses:

  ingest      memories/s for batched import (1,000 per transaction) and for
              single puts, embedding included (the configured default embedder)
  search      p50/p95/p99 ms for hybrid (what 'recall search' runs), BM25 only
              and the raw vector scan, over question-like queries of 3-8 words
  context     p50/p95/p99 ms for a context pack of --budget tokens
  store       bytes per memory on disk (on a server, the growth of its
              tables and indexes over the run), peak RSS of this process
  cold start  wall time of a new 'recall search' process on the store
  serve       requests/s and p50/p95 ms of --clients concurrent HTTP clients
              against a 'recall serve' process on the store, hybrid and BM25
  import      peak RSS of a 'recall import' process loading the store's
              'recall export' into a new store

--ingest-only stops after the writes (the store's bytes then hold no vectors
of a queued embedder such as the built-in encoder).

With --store postgres://… the memories go to that server, in a namespace
of the run's own (bench-scale-…), and the import is not measured.

The store (and a server's namespace) is deleted afterwards unless --keep.
Figures depend on the machine and on what else runs on it: quote medians
from a quiet machine.`

// ScaleExamples are the examples of 'recall bench scale'.
const ScaleExamples = `  recall bench scale
  recall bench scale --memories 100000 --queries 500 --json
  recall bench scale --store postgres://recall@db.example/recall --embedder hashing`

// ScaleReport is the JSON output of bench scale. The keys the issue names
// (memories, ingest_per_s, search_*_ms, context_ms, bytes_per_memory,
// peak_rss_bytes) stay stable; the others add detail.
type ScaleReport struct {
	Memories   int         `json:"memories"`
	Queries    int         `json:"queries"`
	IngestPerS ingestRates `json:"ingest_per_s"`
	// EmbedPerS is how fast queued memories got their vectors after the
	// writes (embedders that do not embed inline); 0 when inline.
	EmbedPerS        float64        `json:"embed_per_s,omitempty"`
	SearchHybridMS   Latency        `json:"search_hybrid_ms"`
	SearchBM25MS     Latency        `json:"search_bm25_ms"`
	SearchVectorMS   Latency        `json:"search_vector_ms"`
	ContextMS        *Latency       `json:"context_ms"` // null when the app has no context builder
	VectorIndexMS    float64        `json:"vector_index_build_ms"`
	ColdStartMS      *Latency       `json:"cold_start_ms,omitempty"`
	ServeHybrid      *Throughput    `json:"serve_hybrid,omitempty"`
	ServeBM25        *Throughput    `json:"serve_bm25,omitempty"`
	ImportPeakRSS    int64          `json:"import_peak_rss_bytes,omitempty"`
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
	// CPU microseconds of this process per memory over the writes (every
	// thread: cleaning, the writer, the collector; not making up the
	// corpus): what a busy machine inflates least. 0 where unmeasured.
	BatchedCPUUS float64 `json:"batched_cpu_us,omitempty"`
	SingleCPUUS  float64 `json:"single_cpu_us,omitempty"`
}

// Scale configures a run over a synthetic store.
type Scale struct {
	Product  Product // DBFile and Open
	Memories int     // memories in the store
	Queries  int     // queries timed per search mode
	Seed     uint64  // corpus seed
	Budget   int     // token budget of the context packs
	ColdRuns int     // new processes timed for cold start (0 skips)
	Embedder string  // embedder of the store; "" for the default
	Clients  int     // concurrent clients of a 'recall serve' process (0 skips)
	// ImportRSS measures the peak memory of 'recall import' on the store.
	ImportRSS bool
	// IngestOnly stops after the writes: no embedding of a queue, no
	// searches, no processes. The ingest rates of the built-in encoder's
	// store (whose embedding is queued) then take seconds, not the hours
	// its embedding would at 100,000.
	IngestOnly bool
	// Exe is the recall binary the process measurements run; "" is this
	// one.
	Exe string
	// ConfigFile is the name of a store's configuration file, copied to
	// the store the import measurement makes.
	ConfigFile string
	// Progress, when set, hears each phase's progress; phase "" ends it.
	Progress func(phase string, done, total int)
	// Bulk, when set, is called before the batched writes and returns
	// what to call after them: the program's settings for a bulk write
	// (its collector) apply to those alone, not to the single puts or
	// the searches, which the report's config records with the settings
	// the batches ran with.
	Bulk func() (done func())
}

// Run builds the store and measures it. It returns the store's directory
// so that the caller can keep or remove it.
func (sc *Scale) Run(ctx context.Context) (*ScaleReport, string, error) {
	n, queries, seed, budget, coldRuns := sc.Memories, sc.Queries, sc.Seed, sc.Budget, sc.ColdRuns
	dir, err := os.MkdirTemp("", "recall-bench-scale-")
	if err != nil {
		return nil, "", err
	}
	b, err := sc.Product.Open(ctx, dir, sc.Embedder)
	if err != nil {
		return nil, dir, err
	}
	defer b.Close()
	rep := &ScaleReport{Memories: n, Queries: queries, ContextBudgetTok: budget}
	e := b.Embedder
	rep.Config = map[string]any{"embedder": e.Model(), "dim": e.Dim(), "gomaxprocs": runtime.GOMAXPROCS(0), "go": runtime.Version(), "seed": seed}
	corpus := synth.New(seed, synth.DefaultVocab)
	progress := sc.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}

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
	var spent, cpu time.Duration
	bulkDone := func() {}
	if sc.Bulk != nil {
		bulkDone = sync.OnceFunc(sc.Bulk())
		defer bulkDone() // also when a write fails or panics
	}
	rep.Config["batched_gc_percent"], rep.Config["batched_memory_limit"] = gcSettings()
	for lo := 0; lo < batched; lo += 1000 {
		ms := make([]*recall.Memory, 0, 1000)
		for i := lo; i < min(lo+1000, batched); i++ {
			ms = append(ms, mk(i))
		}
		start, c0 := time.Now(), selfCPU()
		if _, err := b.Memories.ImportMemories(ctx, ms); err != nil {
			return nil, dir, err
		}
		spent += time.Since(start)
		cpu += selfCPU() - c0
		progress("ingest", lo+len(ms), n)
	}
	bulkDone()
	if batched > 0 {
		rep.IngestPerS.Batched = float64(batched) / spent.Seconds()
		rep.IngestPerS.BatchedCPUUS = float64(cpu.Nanoseconds()) / 1e3 / float64(batched)
	}
	spent, cpu = 0, 0
	for i := batched; i < n; i++ {
		m := mk(i)
		start, c0 := time.Now(), selfCPU()
		if _, err := b.Memories.PutMemory(ctx, m); err != nil {
			return nil, dir, err
		}
		spent += time.Since(start)
		cpu += selfCPU() - c0
	}
	if single > 0 {
		rep.IngestPerS.Single = float64(single) / spent.Seconds()
		rep.IngestPerS.SingleCPUUS = float64(cpu.Nanoseconds()) / 1e3 / float64(single)
	}
	progress("ingest", n, n)
	if sc.IngestOnly {
		rep.PeakRSSBytes = peakRSS()
		b.Close()
		rep.BytesPerMemory = float64(storeBytes(dir, sc.Product.DBFile)) / float64(n)
		progress("", 0, 0)
		return rep, dir, nil
	}

	// An embedder off the write path (the built-in encoder) embeds the
	// queue afterwards, as a server's loop would.
	if b.Vectors != nil && !b.Vectors.EmbedsInline() {
		start := time.Now()
		if err := b.Vectors.DrainQueue(ctx, 0); err != nil {
			return nil, dir, err
		}
		rep.EmbedPerS = float64(n) / time.Since(start).Seconds()
		progress("embed", n, n)
	}

	// The first vector search loads the index: timed on its own.
	start := time.Now()
	_, err = b.Vectors.SearchVectors(ctx, "warm up", 1)
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
	timeAll := func(name string, fn func(q int) error) (Latency, error) {
		lat = lat[:0]
		for q := range qs {
			t0 := time.Now()
			if err := fn(q); err != nil {
				return Latency{}, fmt.Errorf("%s query %q: %w", name, qs[q], err)
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
			hits, err := b.Search.Search(ctx, recall.SearchQuery{Text: qs[q], Limit: 10, Mode: mode, Now: now})
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
			_, err := b.Vectors.SearchVectors(ctx, qs[q], 10)
			return err
		}); err != nil {
			return nil, dir, err
		}
	}
	cb := b.Context
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
	b.Close()
	rep.BytesPerMemory = float64(storeBytes(dir, sc.Product.DBFile)) / float64(n)
	exe := sc.Exe
	if exe == "" && (coldRuns > 0 || sc.Clients > 0 || sc.ImportRSS) {
		if exe, err = os.Executable(); err != nil {
			return nil, dir, err
		}
	}
	if coldRuns > 0 {
		l, err := coldStart(ctx, exe, dir, qs, coldRuns)
		if err != nil {
			return nil, dir, err
		}
		rep.ColdStartMS = &l
	}
	if sc.Clients > 0 {
		progress("serve", 0, 2)
		modes := []string{recall.ModeBM25}
		if vectors {
			modes = append(modes, recall.ModeHybrid)
		}
		tp, err := serveThroughput(ctx, exe, dir, qs, sc.Clients, modes...)
		if err != nil {
			return nil, dir, err
		}
		if t, ok := tp[recall.ModeHybrid]; ok {
			rep.ServeHybrid = &t
		}
		if t, ok := tp[recall.ModeBM25]; ok {
			rep.ServeBM25 = &t
		}
	}
	if sc.ImportRSS {
		progress("import", 0, 1)
		if rep.ImportPeakRSS, err = importRSS(ctx, exe, dir, sc.ConfigFile); err != nil {
			return nil, dir, err
		}
	}
	progress("", 0, 0)
	return rep, dir, nil
}

// coldStart times new processes that open the store and run one search.
func coldStart(ctx context.Context, exe, dir string, qs []string, runs int) (Latency, error) {
	var ds []time.Duration
	for i := 0; i < runs; i++ {
		cmd := exec.CommandContext(ctx, exe, "--store", dir, "search", "--json", qs[i%len(qs)])
		cmd.Args[0] = "recall" // the name the binary (or a test harness) runs as
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			return Latency{}, fmt.Errorf("cold start: %v: %s", err, out)
		}
		ds = append(ds, time.Since(t0))
	}
	return percentiles(ds), nil
}

// TermProgress reports phases on f, a terminal, rewriting one line.
func TermProgress(f io.Writer) func(phase string, done, total int) {
	return func(phase string, done, total int) {
		if phase == "" {
			fmt.Fprint(f, "\r\033[K")
			return
		}
		fmt.Fprintf(f, "\r\033[K%s %d/%d", phase, done, total)
	}
}

// WriteText prints the report for people.
func (r *ScaleReport) WriteText(w io.Writer) {
	row := func(name string, l Latency) {
		fmt.Fprintf(w, "%-22s p50 %7.2f ms   p95 %7.2f ms   p99 %7.2f ms\n", name, l.P50, l.P95, l.P99)
	}
	fmt.Fprintf(w, "memories               %d (%d queries, embedder %v, %v cores)\n", r.Memories, r.Queries, r.Config["embedder"], r.Config["gomaxprocs"])
	fmt.Fprintf(w, "ingest batched         %.0f memories/s (%.1f CPU-µs each)\n", r.IngestPerS.Batched, r.IngestPerS.BatchedCPUUS)
	fmt.Fprintf(w, "ingest single put      %.0f memories/s (%d puts, %.1f CPU-µs each)\n", r.IngestPerS.Single, r.SingleSample, r.IngestPerS.SingleCPUUS)
	if r.EmbedPerS > 0 {
		fmt.Fprintf(w, "embedding (queued)     %.0f memories/s, after the writes\n", r.EmbedPerS)
	}
	fmt.Fprintf(w, "vector index build     %.1f ms\n", r.VectorIndexMS)
	row("search hybrid", r.SearchHybridMS)
	row("search bm25", r.SearchBM25MS)
	row("search vector (raw)", r.SearchVectorMS)
	if r.ContextMS != nil {
		row(fmt.Sprintf("context (%d tokens)", r.ContextBudgetTok), *r.ContextMS)
	} else {
		fmt.Fprintf(w, "context                not wired\n")
	}
	if r.ColdStartMS != nil {
		row("cold start (search)", *r.ColdStartMS)
	}
	for _, s := range []struct {
		name string
		t    *Throughput
	}{{"serve hybrid", r.ServeHybrid}, {"serve bm25", r.ServeBM25}} {
		if s.t != nil {
			fmt.Fprintf(w, "%-22s %7.0f req/s    p50 %7.2f ms   p95 %7.2f ms (%d clients)", s.name, s.t.PerS, s.t.P50, s.t.P95, s.t.Clients)
			if s.t.ServerCPUMS > 0 {
				fmt.Fprintf(w, "   server %.2f CPU-ms a request", s.t.ServerCPUMS)
			}
			if s.t.ClientCPUMS > 0 {
				sep := ","
				if s.t.ServerCPUMS <= 0 {
					sep = "  "
				}
				fmt.Fprintf(w, "%s clients %.2f CPU-ms a request", sep, s.t.ClientCPUMS)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "store                  %.0f bytes/memory\n", r.BytesPerMemory)
	fmt.Fprintf(w, "peak RSS               %.1f MiB\n", float64(r.PeakRSSBytes)/(1<<20))
	if r.ImportPeakRSS > 0 {
		fmt.Fprintf(w, "import peak RSS        %.1f MiB ('recall import' of the export)\n", float64(r.ImportPeakRSS)/(1<<20))
	}
	fmt.Fprintf(w, "hybrid target@10       %.3f\n", r.TargetHitAt10)
}

// gcSettings reads the collector's GC percent and memory limit (the
// runtime's default limit, none, is math.MaxInt64) without setting them:
// setting the percent, even back, can start a collection.
func gcSettings() (percent int, limit int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}
