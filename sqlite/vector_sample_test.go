package sqlite

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// sortedEstimates is what the prefilter once sorted at every query: the
// estimates of every step-th live row of [lo, hi) read from the index,
// here largest first.
func sortedEstimates(x *vectorIndex, cq *codeQuery, lo, hi int) []float32 {
	step := max(1, (hi-lo)/prefilterSample)
	var out []float32
	for r := lo; r < hi; r += step {
		if !x.isDeadRow(r) {
			out = append(out, x.rowWeight(r)*cq.dot(x.rowCode(r)))
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out
}

// isDeadRow reports whether row r is a removed base row.
func (x *vectorIndex) isDeadRow(r int) bool { return r < x.baseLen() && x.isDead(r) }

// The kept sample gives the largest estimates the sorted sample of the
// index gives, whatever the share of the rows (in the file's rows, in
// those added since, across both), and again after each kind of change
// of the rows: a removal in the file's rows and in those added since, an
// added row, codes taken anew. Asked twice without a change, it is not
// taken again.
func TestPrefilter_KeptSampleMatchesSortedEstimates(t *testing.T) {
	for _, dim := range []int{512, 40} {
		rng := rand.New(rand.NewPCG(21, uint64(dim)))
		const n, added = 9000, 700
		y := fileIndexAndAdded(t, rng, dim, n, added)
		changes := []struct {
			name string
			do   func()
		}{
			{"none", func() {}},
			{"removed in the file's rows", func() { y.remove(2); y.remove(4500); y.remove(n) }},
			{"removed among those added", func() { y.remove(n + 1); y.remove(n + added) }},
			{"added", func() { y.add(n+added+1, randVec(rng, dim)) }},
			{"codes taken anew", func() { y.buildCodes() }},
		}
		for _, ch := range changes {
			ch.do()
			rows := y.baseLen() + len(y.seqs)
			for _, span := range [][2]int{{0, rows}, {0, rows / 2}, {rows / 2, rows}, {n - 1000, rows}, {n, rows}, {5, 5}} {
				lo, hi := span[0], span[1]
				for q := 0; q < 4; q++ {
					cq := newCodeQuery(randVec(rng, dim))
					want := sortedEstimates(y, cq, lo, hi)
					s := y.codeSample(y.segments(lo, hi), lo, hi)
					if again := y.codeSample(y.segments(lo, hi), lo, hi); again != s {
						t.Fatalf("dim %d, %s, rows %d–%d: the sample was taken again with no change", dim, ch.name, lo, hi)
					}
					for _, k := range []int{1, 17, len(want)} {
						if got := s.largest(cq, min(k, len(want))); !slices.Equal(got, want[:min(k, len(want))]) {
							t.Fatalf("dim %d, %s, rows %d–%d, query %d: the %d largest estimates differ from the sorted sample's", dim, ch.name, lo, hi, q, k)
						}
					}
				}
			}
		}
	}
}

// The place of a threshold in the sample is the sorted sample's: a place
// beyond the sample, or a share of no rows, is no threshold.
func TestSampleRank(t *testing.T) {
	cases := []struct {
		f          float64
		m, n, span int
		want       int
	}{
		{1.25, 1128, 2084, 50000, 59},
		{4, 1128, 2084, 50000, 189},
		{4, 60000, 2084, 50000, 2084},
		{1.25, 10, 0, 50000, 0},
		{1.25, 10, 0, 0, 0},
	}
	for _, c := range cases {
		if got := sampleRank(c.f, c.m, c.n, c.span); got != c.want {
			t.Errorf("sampleRank(%v, %d, %d, %d) = %d, want %d", c.f, c.m, c.n, c.span, got, c.want)
		}
	}
}

// Scans running side by side share the kept samples (taken by whichever
// asks first) and find what one scan alone finds; rows added between
// them under the write lock, as a refresh adds them, drop the samples,
// and the scans after find what a scan of a fresh copy of the index
// finds. Run with -race, this checks the cache's locking too.
func TestPrefilter_ConcurrentScansShareSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const dim, n = 128, 6000
	x, _ := randIndex(rng, dim, n)
	x.buildCodes()
	queries := make([][]float32, 8)
	for i := range queries {
		queries[i] = randVec(rng, dim)
	}
	scan := func(q []float32) []candidate {
		x.mu.RLock()
		defer x.mu.RUnlock()
		return x.find(q, 40, 900)
	}
	want := make([][]candidate, len(queries))
	for i, q := range queries {
		want[i] = scan(q)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	readers := func(check bool) {
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range 10 {
					i := (g + r) % len(queries)
					if got := scan(queries[i]); check && !slices.Equal(got, want[i]) {
						errs <- "a scan beside others found other rows than alone"
						return
					}
				}
			}()
		}
	}
	readers(true)
	wg.Wait()
	added := make([][]float32, 50)
	for i := range added {
		added[i] = randVec(rng, dim)
	}
	readers(false) // what they find depends on the rows added so far
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i, v := range added {
			x.mu.Lock()
			x.add(int64(n+1+i), v)
			x.mu.Unlock()
		}
	}()
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	fresh, _ := randIndex(rand.New(rand.NewPCG(31, 32)), dim, n)
	for i, v := range added {
		fresh.add(int64(n+1+i), v)
	}
	fresh.mean, fresh.codedRows = x.mean, x.codedRows
	fresh.codes, fresh.weights = slices.Clone(x.codes), slices.Clone(x.weights)
	fresh.bcodes, fresh.bweights = slices.Clone(x.bcodes), slices.Clone(x.bweights)
	for i, q := range queries {
		if got, want := scan(q), fresh.find(q, 40, 900); !slices.Equal(got, want) {
			t.Fatalf("query %d after the rows were added: the scan differs from one of a fresh copy", i)
		}
	}
}
