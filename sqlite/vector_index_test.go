package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/vecmath"
)

func randIndex(rng *rand.Rand, dim, n int) (*vectorIndex, map[int64][]float32) {
	x := newVectorIndex("m", dim)
	exact := map[int64][]float32{}
	for i := 0; i < n; i++ {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		exact[int64(i+1)] = v
		x.add(int64(i+1), v)
	}
	return x, exact
}

// The quantised scan must keep the true nearest rows among its candidates:
// the exact top 10 of a brute-force float32 search are all in its top 64,
// for dense and sparse queries, after removals too.
func TestVectorIndex_Candidates(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const dim, n = 48, 10000 // above minParallelRows, so the scan is split
	x, exact := randIndex(rng, dim, n)
	for _, seq := range []int64{5, 77, 9000, int64(n)} {
		x.remove(seq)
		delete(exact, seq)
	}
	if x.len() != n-4 || len(x.slot) != n-4 || len(x.q8) != (n-4)*dim {
		t.Fatalf("len %d slots %d after removing 4 of %d", x.len(), len(x.slot), n)
	}
	for q := 0; q < 40; q++ {
		query := make([]float32, dim)
		for j := range query {
			if q%2 == 0 || j%5 == 0 { // odd queries are sparse, like the built-in embedder's
				query[j] = float32(rng.NormFloat64())
			}
		}
		var want []int64
		for seq := range exact {
			want = append(want, seq)
		}
		sort.Slice(want, func(i, j int) bool { return recall.Dot(query, exact[want[i]]) > recall.Dot(query, exact[want[j]]) })
		got := map[int64]bool{}
		for _, c := range x.candidates(query, 64) {
			got[c.seq] = true
		}
		for rank, seq := range want[:10] {
			if !got[seq] {
				t.Fatalf("query %d: exact rank %d (seq %d) is not a candidate", q, rank, seq)
			}
		}
	}
}

func TestVectorIndex_Cache(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, _ := randIndex(rng, 16, 300)
	x.remove(7)
	x.remove(250)
	x.maxSeq, x.maxTomb, x.epoch, x.loaded = 300, 2, "e1", true
	path := filepath.Join(t.TempDir(), "recall.db-vectors")
	if err := x.writeCache(path, cacheProbe{}); err != nil {
		t.Fatal(err)
	}
	t.Run("RoundTrip", func(t *testing.T) {
		y, err := openCache(path, "m", 16)
		if err != nil {
			t.Fatal(err)
		}
		if y.len() != x.len() || y.maxSeq != 300 || y.maxTomb != 2 || y.epoch != "e1" || !y.loaded {
			t.Fatalf("read %d rows, seq %d tomb %d epoch %q", y.len(), y.maxSeq, y.maxTomb, y.epoch)
		}
		// The file holds the rows in seq order, whatever order removals
		// left them in.
		rows := x.liveRows()
		for i, r := range rows {
			if y.rowSeq(i) != x.rowSeq(r) || y.rowScale(i) != x.rowScale(r) || !slices.Equal(y.rowQ8(i), x.rowQ8(r)) {
				t.Fatalf("row %d (seq %d) differs", i, x.rowSeq(r))
			}
		}
		if !slices.IsSorted(y.base.seqs) {
			t.Fatal("rows out of seq order")
		}
	})
	t.Run("RemoveAndRewrite", func(t *testing.T) {
		// Rows removed from the mapped base and rows added after it are
		// written back together, in order.
		y, err := openCache(path, "m", 16)
		if err != nil {
			t.Fatal(err)
		}
		y.remove(1)
		y.remove(300)
		y.remove(7) // already gone: nothing happens
		v := make([]float32, 16)
		v[3] = 1
		y.add(301, v)
		y.add(302, v)
		y.remove(301)
		if y.len() != x.len()-1 || y.nDead != 2 {
			t.Fatalf("%d rows, %d dead after two removals and one net add to %d", y.len(), y.nDead, x.len())
		}
		y.maxSeq = 302
		again := filepath.Join(t.TempDir(), "again")
		if err := y.writeCache(again, cacheProbe{}); err != nil {
			t.Fatal(err)
		}
		z, err := openCache(again, "m", 16)
		if err != nil {
			t.Fatal(err)
		}
		if z.len() != y.len() || z.baseLen() != y.len() || z.rowSeq(0) != 2 || z.rowSeq(z.len()-1) != 302 {
			t.Fatalf("rewritten: %d rows, first %d, last %d", z.len(), z.rowSeq(0), z.rowSeq(z.len()-1))
		}
		if !slices.IsSorted(z.base.seqs) {
			t.Fatal("rows out of seq order")
		}
	})
	t.Run("OtherModel", func(t *testing.T) {
		if _, err := openCache(path, "other", 16); err == nil {
			t.Fatal("want an error for another model")
		}
		if _, err := openCache(path, "m", 8); err == nil {
			t.Fatal("want an error for another dimension")
		}
	})
	t.Run("Torn", func(t *testing.T) {
		buf, _ := os.ReadFile(path)
		for name, mutate := range map[string]func([]byte) []byte{
			"RowTable":  func(b []byte) []byte { b[cacheHeaderSize+5] ^= 1; return b },
			"Header":    func(b []byte) []byte { b[20] ^= 1; return b },
			"Trailer":   func(b []byte) []byte { b[len(b)-1] ^= 1; return b },
			"Cut":       func(b []byte) []byte { return b[:len(b)-9] },
			"CutToHead": func(b []byte) []byte { return b[:cacheHeaderSize] },
			"Stub":      func(b []byte) []byte { return b[:3] },
			"Empty":     func(b []byte) []byte { return nil },
			// A crash after the rows but before the header was written
			// leaves zeros where the header goes.
			"NoHeader": func(b []byte) []byte { clear(b[:cacheHeaderSize]); return b },
		} {
			bad := filepath.Join(t.TempDir(), "bad")
			os.WriteFile(bad, mutate(append([]byte(nil), buf...)), 0o600)
			if _, err := openCache(bad, "m", 16); err == nil {
				t.Fatalf("%s: want an error for a damaged file", name)
			}
		}
	})
}

// spikeEmbedder gives a text of n words a vector with a spike at n mod 8.
type spikeEmbedder struct{}

func (spikeEmbedder) Model() string { return "spike" }
func (spikeEmbedder) Dim() int      { return 8 }
func (spikeEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 8)
		v[len(strings.Fields(t))%8] = 1
		out[i] = v
	}
	return out, nil
}

// A process starts from the cache file, applies what changed since, and
// never trusts a cache of another store.
func TestVectorService_CacheFile(t *testing.T) {
	ctx := context.Background()
	open := func(path string) (*DB, *MemoryService, *VectorService) {
		db := NewDB(path)
		db.Now = func() time.Time { return time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC) }
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		vs := NewVectorService(db, spikeEmbedder{}, nil)
		vs.Inline = true
		return db, NewMemoryService(db), vs
	}
	path := filepath.Join(t.TempDir(), "recall.db")
	db, mem, vs := open(path)
	var ms []*recall.Memory
	for i := 0; i < cacheEvery+10; i++ {
		ms = append(ms, &recall.Memory{ID: recall.NewID(), Content: strings.Repeat("w ", i%8+1)})
	}
	if _, err := mem.ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	if _, err := vs.SearchVectors(ctx, "w w w", 3); err != nil {
		t.Fatal(err)
	}
	buf, err := os.ReadFile(db.vectorCachePath())
	if err != nil {
		t.Fatalf("no cache file after loading %d rows: %v", cacheEvery+10, err)
	}
	os.WriteFile(filepath.Join(filepath.Dir(path), "recall.db-vectors.copy"), buf, 0o600)
	// A change after the cache was written is applied on top of it.
	if err := mem.DeleteMemory(ctx, ms[2].ID); err != nil {
		t.Fatal(err)
	}
	_, _, vs2 := open(path)
	hits, err := vs2.SearchVectors(ctx, "w w w", 400)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.MemoryID == ms[2].ID {
			t.Fatal("deleted memory found through the cache")
		}
	}
	if got := vs2.index.Load().len(); got != cacheEvery+9 {
		t.Fatalf("index has %d rows, want %d", got, cacheEvery+9)
	}
	// Dropping the cache (as a purge does) is safe at any time.
	if err := db.DropVectorCache(); err != nil {
		t.Fatal(err)
	}
	if vs.index.Load() != nil {
		t.Fatal("the index (and its mapping of the dropped file) outlived the drop")
	}
	if err := db.DropVectorCache(); err != nil {
		t.Fatalf("dropping a missing cache: %v", err)
	}
	if hits, err := vs.SearchVectors(ctx, "w w w", 1); err != nil || len(hits) != 1 {
		t.Fatalf("after drop: %v, %v", hits, err)
	}
	// A cache copied next to another store is ignored (other epoch).
	other := filepath.Join(t.TempDir(), "recall.db")
	_, _, vs3 := open(other)
	buf, err = os.ReadFile(filepath.Join(filepath.Dir(path), "recall.db-vectors.copy"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(other+"-vectors", buf, 0o600)
	if hits, err := vs3.SearchVectors(ctx, "w", 3); err != nil || len(hits) != 0 {
		t.Fatalf("empty store answered %v, %v through a foreign cache", hits, err)
	}
}

func BenchmarkVectorIndex_Candidates(b *testing.B) {
	b.Run("Dense", func(b *testing.B) { benchCandidates(b, 384, 384) })
	b.Run("Sparse40", func(b *testing.B) { benchCandidates(b, 384, 40) })
	// The built-in sentence encoder's vectors: 512 dimensions, dense.
	b.Run("Dense512", func(b *testing.B) { benchCandidates(b, 512, 512) })
}

// BenchmarkVectorIndex_Prefilter compares the exact scan of n rows of 512
// dimensions with the scan through the codes (with keep = 64, the rows
// passed on are prefilterSize's), to find where the codes start to pay.
func BenchmarkVectorIndex_Prefilter(b *testing.B) {
	for _, n := range []int{10000, 25000, 50000, 100000} {
		rng := rand.New(rand.NewPCG(1, 2))
		x, _ := randIndex(rng, 512, n)
		x.buildCodes()
		query := make([]float32, 512)
		for j := range query {
			query[j] = float32(rng.NormFloat64())
		}
		m := max(prefilterFloor, prefilterPerKeep*64, n/prefilterFraction)
		b.Run(fmt.Sprintf("exact/%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				x.find(query, 64, 0)
			}
		})
		b.Run(fmt.Sprintf("codes/%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				x.find(query, 64, m)
			}
		})
	}
}

// benchCandidates scans 100,000 rows of dim dimensions with a query of
// nonzero non-zero components.
func benchCandidates(b *testing.B, dim, nonzero int) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, _ := randIndex(rng, dim, 100000)
	query := make([]float32, dim)
	for j := 0; j < nonzero; j++ {
		query[rng.IntN(dim)] = 1
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.candidates(query, 64)
	}
}

func FuzzOpenCache(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	x, _ := randIndex(rng, 4, 3)
	x.maxSeq, x.epoch, x.loaded = 3, "e", true
	path := filepath.Join(f.TempDir(), "seed")
	if err := x.writeCache(path, cacheProbe{}); err != nil {
		f.Fatal(err)
	}
	seed, _ := os.ReadFile(path)
	f.Add(seed)
	x.buildCodes() // and a file with codes
	if err := x.writeCache(path, cacheProbe{}); err != nil {
		f.Fatal(err)
	}
	seed, _ = os.ReadFile(path)
	f.Add(seed)
	f.Add([]byte(cacheMagic))
	f.Fuzz(func(t *testing.T, buf []byte) {
		p := filepath.Join(t.TempDir(), "c")
		if err := os.WriteFile(p, buf, 0o600); err != nil {
			t.Fatal(err)
		}
		y, err := openCache(p, "m", 4)
		if err != nil {
			return
		}
		if len(y.base.q8) != y.len()*4 || len(y.base.scales) != y.len() || len(y.base.seqs) != y.len() {
			t.Fatalf("inconsistent index from an accepted cache: %d rows, %d bytes", y.len(), len(y.base.q8))
		}
		if y.mean != nil && (len(y.mean) != 4 || len(y.bcodes) != y.len() || len(y.bweights) != y.len()) {
			t.Fatalf("inconsistent codes from an accepted cache: %d rows, %d codes", y.len(), len(y.bcodes))
		}
		y.candidates([]float32{1, 0, 0, 1}, 2)
		if y.mean != nil {
			y.find([]float32{1, 0, 0, 1}, 2, 1)
		}
	})
}

// A search whose index has seen every change takes neither the refresh
// lock nor the index's write lock: with both held (one search refreshing,
// another scanning), searches of a server would otherwise run one at a
// time. A change is still applied by the next search.
func TestVectorService_CurrentIndexTakesNoRefreshLock(t *testing.T) {
	ctx := context.Background()
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	vs := NewVectorService(db, spikeEmbedder{}, nil)
	vs.Inline = true
	mem := NewMemoryService(db)
	a, err := mem.PutMemory(ctx, &recall.Memory{Content: "w w"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vs.SearchVectors(ctx, "w w", 1); err != nil {
		t.Fatal(err)
	}
	x := vs.index.Load()
	vs.mu.Lock()
	x.mu.RLock()
	done := make(chan error, 1)
	go func() {
		hits, err := vs.SearchVectors(ctx, "w w", 1)
		if err == nil && (len(hits) != 1 || hits[0].MemoryID != a.Memory.ID) {
			err = fmt.Errorf("hits %+v, want %s", hits, a.Memory.ID)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second): // not a timing bound: a blocked search never returns
		t.Fatal("a search with a current index waited for the refresh or index lock")
	}
	x.mu.RUnlock()
	vs.mu.Unlock()
	b, err := mem.PutMemory(ctx, &recall.Memory{Content: "w w w"})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := vs.SearchVectors(ctx, "w w w", 1)
	if err != nil || len(hits) != 1 || hits[0].MemoryID != b.Memory.ID {
		t.Fatalf("after a write: hits %+v (%v), want %s", hits, err, b.Memory.ID)
	}
}

// The scan scores a block of rows per kernel call: its candidates (seqs
// and scores, bit for bit) are those of scoring each live row on its own,
// across the cache file's rows, the rows added since and removals of both,
// with a dimension the kernel covers whole (512) and one with a tail (40).
func TestVectorIndex_BlockScanMatchesRowByRow(t *testing.T) {
	for _, dim := range []int{512, 40} {
		rng := rand.New(rand.NewPCG(3, uint64(dim)))
		const n, added = 6000, 700
		x, _ := randIndex(rng, dim, n)
		x.maxSeq, x.epoch, x.loaded = n, "e", true
		path := filepath.Join(t.TempDir(), "cache")
		if err := x.writeCache(path, cacheProbe{}); err != nil {
			t.Fatal(err)
		}
		y, err := openCache(path, "m", dim)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < added; i++ {
			v := make([]float32, dim)
			for j := range v {
				v[j] = float32(rng.NormFloat64())
			}
			y.add(int64(n+1+i), v)
		}
		for _, seq := range []int64{1, 255, 256, 257, 4000, n, n + 3, n + added} {
			y.remove(seq)
		}
		for q := 0; q < 20; q++ {
			query := make([]float32, dim)
			for j := range query {
				query[j] = float32(rng.NormFloat64())
			}
			var want []candidate
			buf := make([]float32, dim)
			for r := 0; r < y.baseLen()+len(y.seqs); r++ {
				if r < y.baseLen() && y.isDead(r) {
					continue
				}
				want = append(want, candidate{seq: y.rowSeq(r), score: vecmath.DotI8(query, y.rowQ8(r)) * y.rowScale(r), exact: y.rescore(query, r, buf)})
			}
			sort.Slice(want, func(i, j int) bool {
				if want[i].score != want[j].score {
					return want[i].score > want[j].score
				}
				return want[i].seq < want[j].seq
			})
			for _, keep := range []int{1, 64, 300} {
				if got := y.candidates(query, keep); !slices.Equal(got, want[:keep]) {
					t.Fatalf("dim %d, query %d, keep %d: block scan differs from row by row", dim, q, keep)
				}
			}
		}
	}
}
