package sqlite

import (
	"math/bits"
	"runtime"
	"sync"
)

// Sign codes summarise each row of the vector index in one bit per
// dimension, so that a large index is first scanned through an eighth of
// the bytes of its int8 rows (64 against 512 bytes at 512 dimensions), and
// the int8 rows are read only for the best of that coarse pass
// (vectorIndex.prefilter). Bit j of a row's code is set when component j
// of the row is above the index's mean: sentence vectors share a common
// direction, and the signs of the raw components would be nearly the same
// for every row; centred, each bit splits the rows about in half.
//
// The code alone loses each row's length off the mean, so each row also
// keeps a weight, |d|²/|d|₁ for d = row − mean: with s the ±1 of the bits,
// <q, d> ≈ weight · <q, s> (the estimate of RaBitQ, Gao and Long 2024,
// with s/√dim for the unit code and <s, d>/√dim = |d|₁). <q, mean> is the
// same for every row and drops out of the ranking.

// codeWords is how many 64-bit words hold one row's code.
func codeWords(dim int) int { return (dim + 63) / 64 }

// signCode sets code (codeWords(len(q8)) words) to the signs of the row
// q8·scale less mean and returns the row's weight.
func signCode(code []uint64, q8 []int8, scale float32, mean []float32) float32 {
	clear(code)
	var l1, l2 float32
	for j, b := range q8 {
		d := float32(b)*scale - mean[j]
		if d > 0 {
			code[j/64] |= 1 << (j % 64)
			l1 += d
		} else {
			l1 -= d
		}
		l2 += d * d
	}
	if l1 == 0 {
		return 0
	}
	return l2 / l1
}

// codeQuery is a query read against sign codes: the signs of its
// components, a bit each. A row's estimate is then dim − 2·(the Hamming
// distance of the two), times the row's weight: a popcount a word. A
// query kept to 4 bits (four planes, five popcounts a word) ranked as
// well with half as many rows passed on, but took five times as long
// (docs/performance.md).
type codeQuery struct {
	signs []uint64
	dim   int
}

func newCodeQuery(q []float32) *codeQuery {
	cq := &codeQuery{signs: make([]uint64, codeWords(len(q))), dim: len(q)}
	for j, v := range q {
		if v > 0 {
			cq.signs[j/64] |= 1 << (j % 64)
		}
	}
	return cq
}

// dot estimates <q, s> for the ±1 signs s of code, up to a factor the
// same for every row (the mean magnitude of q's components).
func (cq *codeQuery) dot(code []uint64) float32 {
	p := cq.signs[:len(code)]
	d := 0
	for w, c := range code {
		d += bits.OnesCount64(p[w] ^ c)
	}
	return float32(cq.dim - 2*d)
}

// indexMean is the mean of the rows (q8 widened by scale) that rows lists,
// summed over cores.
func (x *vectorIndex) indexMean(rows []int) []float32 {
	workers := runtime.GOMAXPROCS(0)
	sums := make([][]float64, workers)
	var wg sync.WaitGroup
	per := (len(rows) + workers - 1) / workers
	for w := range workers {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			s := make([]float64, x.dim)
			for _, r := range rows[min(len(rows), w*per):min(len(rows), (w+1)*per)] {
				scale := float64(x.rowScale(r))
				for j, b := range x.rowQ8(r) {
					s[j] += float64(b) * scale
				}
			}
			sums[w] = s
		}(w)
	}
	wg.Wait()
	mean := make([]float32, x.dim)
	for j := range mean {
		var s float64
		for _, part := range sums {
			s += part[j]
		}
		if len(rows) > 0 {
			mean[j] = float32(s / float64(len(rows)))
		}
	}
	return mean
}

// ensureCodes builds the codes of an index large enough to search through
// them that has none, or whose rows have doubled since the mean was taken
// (it may be far from theirs). The caller holds the write lock, or the
// index is not shared yet.
// An index of sparse rows (the hashing embedder's) keeps none: its
// queries are sparse too and are scanned exactly (prefilterSize).
func (x *vectorIndex) ensureCodes() {
	if n := x.len(); n >= prefilterMinRows && (x.mean == nil || n >= 2*max(x.codedRows, 1)) && !x.sparseRows() {
		x.buildCodes()
	}
}

// sparseRows reports whether fewer than a third of the components of a
// sample of the rows (up to 1,024 spread over the index) are non-zero.
func (x *vectorIndex) sparseRows() bool {
	n := x.baseLen() + len(x.seqs)
	step := max(1, n/1024)
	var nonzero, total int
	for r := 0; r < n; r += step {
		for _, b := range x.rowQ8(r) {
			if b != 0 {
				nonzero++
			}
		}
		total += x.dim
	}
	return nonzero*3 < total
}

// buildCodes takes the mean of the live rows and codes every row against
// it, the file's rows into memory of their own (the mapping is never
// written). The caller holds the write lock.
func (x *vectorIndex) buildCodes() {
	x.samples.drop()
	live := x.liveRows()
	x.mean = x.indexMean(live)
	x.codedRows = len(live)
	words := codeWords(x.dim)
	nb := x.baseLen()
	x.bcodes, x.bweights = make([]uint64, nb*words), make([]float32, nb)
	x.codes, x.weights = make([]uint64, len(x.seqs)*words), make([]float32, len(x.seqs))
	n := nb + len(x.seqs)
	workers := runtime.GOMAXPROCS(0)
	per := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for r := lo; r < hi; r++ {
				weight := signCode(x.rowCode(r), x.rowQ8(r), x.rowScale(r), x.mean)
				if r < nb {
					x.bweights[r] = weight
				} else {
					x.weights[r-nb] = weight
				}
			}
		}(min(n, w*per), min(n, (w+1)*per))
	}
	wg.Wait()
}

// rowCode is the code of row r (a base row or one added since).
func (x *vectorIndex) rowCode(r int) []uint64 {
	words := codeWords(x.dim)
	if nb := x.baseLen(); r < nb {
		return x.bcodes[r*words : (r+1)*words]
	} else {
		r -= nb
		return x.codes[r*words : (r+1)*words]
	}
}

func (x *vectorIndex) rowWeight(r int) float32 {
	if nb := x.baseLen(); r < nb {
		return x.bweights[r]
	} else {
		return x.weights[r-nb]
	}
}

// addCode appends the code of the row just added (the last one) when the
// index keeps codes.
func (x *vectorIndex) addCode() {
	if x.mean == nil {
		return
	}
	words := codeWords(x.dim)
	n := len(x.codes)
	x.codes = append(x.codes, make([]uint64, words)...)
	last := len(x.seqs) - 1
	x.weights = append(x.weights, signCode(x.codes[n:], x.q8[last*x.dim:], x.scales[last], x.mean))
}
