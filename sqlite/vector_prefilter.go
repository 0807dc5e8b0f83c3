package sqlite

import (
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/recall-mem/recall/internal/vecmath"
)

// The prefilter is the first of two passes over a large index: the sign
// codes of every live row (vector_codes.go, 64 bytes a row at 512
// dimensions) rank the rows roughly, and only the best m of them have
// their int8 rows scored, as the exact scan scores every row. What
// follows (the re-score, the rerank) is the same either way. Below
// prefilterMinRows rows the exact scan is as fast and the index keeps no
// codes, so small stores rank exactly as before.

// prefilterMinRows is the size from which an index keeps codes and
// searches through them: below some 25,000 to 50,000 rows of 512
// dimensions the exact scan was as fast (BenchmarkVectorIndex_Prefilter).
var prefilterMinRows = 30000

// prefilterTestEnv, set to a number p, turns the prefilter on at every
// size, passing on p·keep rows. It is for measurement, not a setting:
// LoCoMo's stores (400 to 700 passages) are far below prefilterMinRows,
// and this is how its figures with the prefilter were taken.
const prefilterTestEnv = "RECALL_TEST_PREFILTER_PER_KEEP"

func init() {
	if p, err := strconv.Atoi(os.Getenv(prefilterTestEnv)); err == nil && p > 0 {
		prefilterMinRows, prefilterFloor, prefilterPerKeep, prefilterFraction = 0, 0, p, math.MaxInt
	}
}

// prefilterSize is how many rows the codes pass on to the exact scan for
// keep candidates; 0 means the exact scan of every row. It grows with
// keep and with the index: the rank by codes of the rows the exact scan
// ranks first spreads with the number of rows.
//
// A sparse query (fewer than a third of its components non-zero: the
// hashing embedder's) is scanned exactly: its vectors and the rows' are
// mostly zeros, whose signs against the mean say nothing, and at a
// million rows of 512 dimensions the codes kept under 10% of the exact
// top 10 even passing on 40,000 rows (docs/performance.md).
func (x *vectorIndex) prefilterSize(query []float32, keep int) int {
	n := x.len()
	if x.mean == nil || n < prefilterMinRows {
		return 0
	}
	if nonZeros(query)*3 < len(query) {
		return 0
	}
	m := max(prefilterFloor, prefilterPerKeep*keep, n/prefilterFraction)
	if m >= n {
		return 0
	}
	return m
}

// prefilterFloor, prefilterPerKeep and prefilterFraction set
// prefilterSize. Measured on the built-in encoder's vectors (docs/
// performance.md, TestPrefilter_StoreOverlap), the share of the exact top
// 10 kept: at 100,000 rows, 99.2% passing on 1,000 rows and 99.8% passing
// on 2,000; at a million (the same vectors ten times over, moved by
// noise), 98.9% passing on 4,000 and 99.8% passing on 10,000. A row
// passed on costs about 0.2 µs (its int8 row is read from memory), a
// row's code some 5 ns.
var (
	prefilterFloor    = 2000
	prefilterPerKeep  = 16
	prefilterFraction = 100
)

// prefilter finds the keep best of rows [lo, hi) for query into h: the
// rows whose codes estimate at least a threshold (m of them or a few more),
// scored exactly from their int8 rows in row order, so that with every row
// passing the heap ends as the exact scan's.
func (x *vectorIndex) prefilter(h *minHeap, cq *codeQuery, query []float32, keep, m, lo, hi int) {
	segs := x.segments(lo, hi)
	rows := make([]int, 0, m+m/2)
	above := float32(math.Inf(1))
	// The threshold is read from a sample of the rows' estimates, set a
	// little low so that m rows pass; when fewer do, the rows between a
	// lower threshold and the first are added, down to every row. Only
	// the sample's largest estimates are ever read: the place of the
	// widest threshold and those above it.
	smp := x.codeSample(segs, lo, hi)
	n := len(smp.weights)
	top := smp.largest(cq, min(n, sampleRank(prefilterWidest, m, n, hi-lo)+1))
	for _, f := range []float64{1.25, prefilterWidest, math.Inf(1)} {
		at := float32(math.Inf(-1))
		if k := sampleRank(f, m, n, hi-lo); k < n {
			at = top[k]
		}
		for _, sg := range segs {
			rows = sg.collect(rows, cq, at, above)
		}
		if len(rows) >= m || math.IsInf(float64(at), -1) {
			break
		}
		above = at
	}
	slices.Sort(rows)
	// The rows passed on are scattered over the index: they are scored in
	// blocks, a segment at a time, by the kernel that fetches rows ahead.
	var offs [scanBlock]int
	var dots [scanBlock]float32
	for _, sg := range segs {
		at, _ := slices.BinarySearch(rows, sg.lo)
		end, _ := slices.BinarySearch(rows, sg.hi)
		for lo := at; lo < end; lo += scanBlock {
			block := rows[lo:min(end, lo+scanBlock)]
			for k, r := range block {
				offs[k] = (r - sg.first) * sg.dim
			}
			vecmath.DotI8Gather(query, sg.q8, offs[:len(block)], dots[:len(block)])
			for k, r := range block {
				s := dots[k] * sg.scales[r-sg.first]
				if len(*h) == keep && s <= (*h)[0].score {
					continue
				}
				push(h, keep, r, s)
			}
		}
	}
}

// prefilterWidest is the widest threshold read from the sample: it lets
// through about four times the rows asked for; below it, every row.
const prefilterWidest = 4

// sampleRank is the place, counted from the largest, of the sample's
// estimate that lets through about f·m of the span rows: an estimate
// beyond the sample (n or more) is no threshold at all.
func sampleRank(f float64, m, n, span int) int {
	k := math.Ceil(f * float64(m) * float64(n) / float64(span))
	if !(k < float64(n)) { // also NaN: a worker with no rows
		return n
	}
	return int(k)
}

// prefilterSample is how many rows' estimates set the threshold.
const prefilterSample = 2048

// codeSample is the codes and weights of up to prefilterSample live rows
// spread evenly over rows [lo, hi), copied next to each other. It depends
// on the rows alone, not on the query, so it is taken once per change of
// the index (each worker's share has its own) and read by every query
// after: read from the index, the sample's rows are thousands of
// scattered cache lines (a code, a weight and a dead bit each), and were
// missed by the caches at every query.
type codeSample struct {
	lo, hi  int
	codes   []uint64 // codeWords(dim) a row
	weights []float32
}

// sampleCache holds the samples of the index as it is now: every change
// of the rows drops them (drop, under the index's write lock); scans,
// which share the read lock, take or add one under mu.
type sampleCache struct {
	mu   sync.Mutex
	list []*codeSample
}

// drop forgets every sample: the rows, or which of them are live, changed.
func (c *sampleCache) drop() {
	c.mu.Lock()
	c.list = nil
	c.mu.Unlock()
}

// maxSamples bounds the samples kept: one per worker's share, and the
// shares move only with the index's size or the number of workers. Twice
// the workers of one scan, so that a scan on a machine of many cores
// finds its own shares' samples again (with a fixed 16, a scan on 17
// workers took some of its samples anew every time).
func maxSamples() int { return max(16, 2*runtime.GOMAXPROCS(0)) }

// codeSample returns the sample of rows [lo, hi), cut into segs, taking
// it if there is none. The caller holds the index's read lock.
func (x *vectorIndex) codeSample(segs []segment, lo, hi int) *codeSample {
	c := &x.samples
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.list {
		if s.lo == lo && s.hi == hi {
			return s
		}
	}
	s := takeSample(segs, lo, hi, x.dim)
	if len(c.list) >= maxSamples() {
		c.list = c.list[1:]
	}
	c.list = append(c.list, s)
	return s
}

// takeSample copies the codes and weights of every step-th live row of
// [lo, hi), the step setting about prefilterSample rows, counted from lo.
func takeSample(segs []segment, lo, hi, dim int) *codeSample {
	words := codeWords(dim)
	step := max(1, (hi-lo)/prefilterSample)
	s := &codeSample{lo: lo, hi: hi}
	for _, sg := range segs {
		for r := lo + (sg.lo-lo+step-1)/step*step; r < sg.hi; r += step {
			if i := r - sg.first; !sg.isDead(i) {
				s.codes = append(s.codes, sg.codes[i*words:(i+1)*words]...)
				s.weights = append(s.weights, sg.weights[i])
			}
		}
	}
	return s
}

// largest returns the k largest estimates of the sample's rows for the
// query, largest first: the estimate at place j from the top of the
// sorted sample, for every j below k. A heap of k keeps them, as a full
// sort of the sample ordered what was never read.
func (s *codeSample) largest(cq *codeQuery, k int) []float32 {
	if k <= 0 {
		return nil
	}
	words := codeWords(cq.dim)
	top := make([]float32, 0, k) // a min-heap until the end
	var dist [scanBlock]int32    // 8-word codes: Hamming distances a block at a time
	for i, w := range s.weights {
		var e float32
		if words == 8 {
			if i%scanBlock == 0 {
				n := min(scanBlock, len(s.weights)-i)
				vecmath.Hamming8((*[8]uint64)(cq.signs), s.codes[i*8:(i+n)*8], dist[:n])
			}
			e = w * float32(cq.dim-2*int(dist[i%scanBlock])) // cq.dot's value
		} else {
			e = w * cq.dot(s.codes[i*words:(i+1)*words:(i+1)*words])
		}
		switch {
		case len(top) < k:
			top = append(top, e)
			siftUp(top, len(top)-1)
		case e > top[0]:
			top[0] = e
			siftDown(top, 0)
		}
	}
	slices.Sort(top)
	slices.Reverse(top)
	return top
}

// siftUp and siftDown keep a min-heap of float32 in a slice.
func siftUp(h []float32, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h[p] <= h[i] {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func siftDown(h []float32, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1] < h[c] {
			c++
		}
		if h[i] <= h[c] {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// estimate is the codes' estimate of the similarity of row i (counted
// from sg.first) to the query, up to a term and a factor the same for
// every row.
func (sg *segment) estimate(i int, cq *codeQuery) float32 {
	words := codeWords(sg.dim)
	return sg.weights[i] * cq.dot(sg.codes[i*words:(i+1)*words:(i+1)*words])
}

// collect appends to rows the segment's live rows whose estimate is in
// [from, below).
func (sg *segment) collect(rows []int, cq *codeQuery, from, below float32) []int {
	if codeWords(sg.dim) == 8 {
		return sg.collect8(rows, cq, from, below)
	}
	for r := sg.lo; r < sg.hi; r++ {
		i := r - sg.first
		if e := sg.estimate(i, cq); e >= from && e < below && !sg.isDead(i) {
			rows = append(rows, r)
		}
	}
	return rows
}

// collect8 is collect for codes of 8 words (449 to 512 dimensions, the
// built-in encoder's 512 among them): the same estimate, its Hamming
// distances taken a block of rows at a time (vecmath.Hamming8: one
// AVX-512 popcount a row where the CPU has it, five times faster than
// the eight of the Go loop), with no bounds checks or calls in the loop.
func (sg *segment) collect8(rows []int, cq *codeQuery, from, below float32) []int {
	q := (*[8]uint64)(cq.signs)
	dim := cq.dim
	codes := sg.codes[(sg.lo-sg.first)*8 : (sg.hi-sg.first)*8]
	weights := sg.weights[sg.lo-sg.first : sg.hi-sg.first]
	var dist [scanBlock]int32
	for lo := 0; lo < len(weights); lo += scanBlock {
		block := weights[lo:min(len(weights), lo+scanBlock)]
		vecmath.Hamming8(q, codes[lo*8:(lo+len(block))*8], dist[:len(block)])
		for k, w := range block {
			if e := w * float32(dim-2*int(dist[k])); e >= from && e < below && !sg.isDead(sg.lo-sg.first+lo+k) {
				rows = append(rows, sg.lo+lo+k)
			}
		}
	}
	return rows
}
