package sqlite

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/internal/locomo"
	"github.com/recall-mem/recall/internal/synth"
	"github.com/recall-mem/recall/sentence"
)

// prefilterStoreEnv names a store (its recall.db) with vectors of the
// built-in encoder: TestPrefilter_StoreOverlap then measures, for several
// prefilter sizes, how much of the exact scan's top 10 the prefilter
// keeps, over the benchmark's questions and, when
// RECALL_PREFILTER_LOCOMO names the LoCoMo data, its questions
// (RECALL_PREFILTER_EMBEDDER=hashing reads a store of the hashing
// embedder at 512 dimensions instead). It is skipped otherwise: the
// figures of docs/performance.md come from it, on a copy of a
// 100,000-memory store that takes hours to embed.
const prefilterStoreEnv = "RECALL_PREFILTER_STORE"

func TestPrefilter_StoreOverlap(t *testing.T) {
	path, ok := os.LookupEnv(prefilterStoreEnv)
	if !ok {
		t.Skip(prefilterStoreEnv + " names no store")
	}
	ctx := context.Background()
	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var e recall.Embedder = sentence.Default()
	if os.Getenv("RECALL_PREFILTER_EMBEDDER") == "hashing" {
		e = hashing.NewHashing(512) // the growth table's vectors (docs/performance.md)
	}
	vs := NewVectorService(db, e, nil)
	x, err := vs.refresh(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := strconv.Atoi(os.Getenv("RECALL_PREFILTER_REPLICATE")); err == nil && r > 1 {
		x = replicate(x, r)
	}
	if x.mean == nil {
		x.buildCodes() // sparse rows keep none; measured all the same
	}
	n := x.len()
	var texts []string
	corpus := synth.New(1, synth.DefaultVocab)
	for q := range 300 {
		text, _ := corpus.Query(q, n)
		texts = append(texts, text)
	}
	if p := os.Getenv("RECALL_PREFILTER_LOCOMO"); p != "" {
		convs, err := locomo.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range convs {
			for _, q := range c.Questions {
				texts = append(texts, q.Text)
			}
		}
		texts = texts[:min(len(texts), 600)]
	}
	var queries [][]float32
	for i := 0; i < len(texts); i += 64 {
		vs, err := e.Embed(ctx, texts[i:min(len(texts), i+64)])
		if err != nil {
			t.Fatal(err)
		}
		queries = append(queries, vs...)
	}
	ms := []int{0, 1000, 2000, 4000, 8000, 16000, -1} // -1: prefilterSize's
	if s := os.Getenv("RECALL_PREFILTER_MS"); s != "" {
		ms = ms[:1]
		for _, f := range strings.Split(s, ",") {
			m, _ := strconv.Atoi(f)
			ms = append(ms, m)
		}
	}
	keep := envKeep()
	nonzero := 0
	for _, q := range queries {
		nz, _ := nonZero(q)
		nonzero += len(nz)
	}
	t.Logf("%s, %d dimensions, %.1f non-zero components a query on average", e.Model(), e.Dim(), float64(nonzero)/float64(len(queries)))
	x.mu.RLock()
	defer x.mu.RUnlock()
	var want [][]int64
	for _, m := range ms {
		var overlap, worst float64 = 0, 1
		var cpu []time.Duration
		for i, q := range queries {
			c0 := cpuNow()
			pm := m
			if m < 0 { // what the search passes on
				pm = x.prefilterSize(q, keep)
			}
			got := top10(x.find(q, keep, pm))
			cpu = append(cpu, cpuNow()-c0)
			if m == 0 {
				want = append(want, got)
				continue
			}
			same := 0
			for _, s := range got {
				if slices.Contains(want[i], s) {
					same++
				}
			}
			o := float64(same) / float64(len(want[i]))
			overlap += o
			worst = min(worst, o)
		}
		slices.Sort(cpu)
		t.Logf("rows %d, keep %d, m %6d: mean top-10 overlap %.4f (worst %.1f) over %d queries; CPU per search p50 %s p95 %s",
			n, keep, m, overlap/float64(len(queries)), worst, len(queries), cpu[len(cpu)/2], cpu[len(cpu)*95/100])
	}
	fmt.Fprintln(os.Stderr)
}

func envKeep() int {
	if k, err := strconv.Atoi(os.Getenv("RECALL_PREFILTER_KEEP")); err == nil {
		return k
	}
	return 64
}

// replicate returns an index of r copies of x's rows, every copy but the
// first moved by noise of a quarter of the row's length (then scaled back
// to it), with codes: a store r times larger whose vectors are spread as
// the encoder's are, where embedding that many takes hours.
func replicate(x *vectorIndex, r int) *vectorIndex {
	rng := rand.New(rand.NewPCG(1, uint64(r)))
	y := newVectorIndex(x.model, x.dim)
	rows := x.liveRows()
	v := make([]float32, x.dim)
	for k := range r {
		for _, row := range rows {
			var norm float64
			for j, b := range x.rowQ8(row) {
				v[j] = float32(b) * x.rowScale(row)
				norm += float64(v[j]) * float64(v[j])
			}
			if k > 0 {
				sigma := 0.25 * math.Sqrt(norm/float64(x.dim))
				var n2 float64
				for j := range v {
					v[j] += float32(sigma * rng.NormFloat64())
					n2 += float64(v[j]) * float64(v[j])
				}
				for j := range v {
					v[j] *= float32(math.Sqrt(norm / n2))
				}
			}
			y.add(int64(y.len()+1), v)
		}
	}
	y.buildCodes()
	return y
}

// densifyEnv names a store (its recall.db) whose vectors
// TestPrefilter_DensifyStore replaces by the built-in encoder's: the
// vectors of the store RECALL_PREFILTER_STORE names, over and over, every
// copy but the first moved by noise (replicate). It makes a million-row
// store of dense vectors from 'recall bench scale --embedder hashing' in
// a minute, where embedding a million memories takes hours; the texts no
// longer match their vectors, which timing the scan does not need. The
// store's vector cache file is deleted (it is the other model's).
const densifyEnv = "RECALL_PREFILTER_DENSIFY"

func TestPrefilter_DensifyStore(t *testing.T) {
	target, source := os.Getenv(densifyEnv), os.Getenv(prefilterStoreEnv)
	if target == "" || source == "" {
		t.Skip(densifyEnv + " and " + prefilterStoreEnv + " name no stores")
	}
	ctx := context.Background()
	src := NewDB(source)
	if err := src.Open(); err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	e := sentence.Default()
	x, err := NewVectorService(src, e, nil).refresh(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	db := NewDB(target)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM memory_vectors`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	y := replicate(x, (n+x.len()-1)/x.len())
	seqs, err := querySeqs(db, `SELECT seq FROM memory_vectors ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, `UPDATE memory_vectors SET vec = ?, model = ?, dim = ? WHERE seq = ?`)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float32, x.dim)
	var blob []byte
	for i, seq := range seqs {
		scale := y.rowScale(i)
		for j, b := range y.rowQ8(i) {
			v[j] = float32(b) * scale
		}
		blob = encodeVector(blob[:0], v)
		if _, err := st.ExecContext(ctx, blob, e.Model(), e.Dim(), seq); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE store_meta SET value = CASE key WHEN ? THEN ? ELSE ? END WHERE key IN (?, ?)`,
		metaVectorModel, e.Model(), fmt.Sprint(e.Dim()), metaVectorModel, metaVectorDim); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	os.Remove(db.vectorCachePath())
	t.Logf("%d vectors of %s written", len(seqs), e.Model())
}
