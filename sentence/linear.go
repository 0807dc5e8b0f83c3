package sentence

import (
	"runtime"
	"sync"

	"github.com/recall-mem/recall/internal/vecmath"
)

// linear is a dense layer y = x·W + b with W stored transposed (one row
// per output), so that every output is a dot product over contiguous
// memory and each weight row is read once per batch of tokens. W is
// float32 (wt), or int8 rows with one scale each read in place from the
// weight file (q, scales) and widened four rows at a time as a pass
// reaches them: a quarter of the bytes to bring from memory per query,
// and nothing to decode at load.
type linear struct {
	in, out int
	wt      []float32 // out × in, or nil when q holds W
	q       []byte    // out × in int8, in place
	scales  []float32 // one per row of q
	b       []float32 // out
}

// newLinear takes W already transposed (out × in), as the weight file
// stores it: decoded, or in place with a scale per row. An in-place W
// with scales per column is decoded here.
func newLinear(wt, b Tensor) linear {
	l := linear{in: wt.Cols(), out: wt.Rows(), wt: wt.Data, b: b.Data}
	switch {
	case wt.Data != nil:
	case wt.Form == FormInt8Row:
		l.q, l.scales = wt.q, wt.scales
	default:
		l.wt = make([]float32, len(wt.q))
		dequantise(l.wt, wt.q, wt.scales, wt.Cols(), wt.Form)
	}
	return l
}

// rowBlock is the most rows of W widened at once.
const rowBlock = 4

// weights returns rows j..j+n of W as float32: a slice of wt, or the
// int8 rows widened into buf.
func (l *linear) weights(buf []float32, j, n int) []float32 {
	in := l.in
	if l.wt != nil {
		return l.wt[j*in : (j+n)*in : (j+n)*in]
	}
	w := buf[: n*in : n*in]
	widenRows(w, l.q[j*in:(j+n)*in], in, l.scales[j:j+n])
	return w
}

// parallelWork is the multiply-adds above which a layer is split across
// cores. A query's pass (up to some forty pieces) stays on one: split,
// its goroutines and their wake-ups cost 10-15% more CPU, which a server
// answering many requests at once pays in throughput, and in a hybrid
// search the embedding runs beside the full-text search, which the
// second core is for. Long texts (the background embedder's) still
// split their larger layers.
const parallelWork = 1 << 25

// workers is how many goroutines apply runs over t rows.
func (l *linear) workers(t int) int {
	if t*l.in*l.out >= parallelWork {
		return min(runtime.GOMAXPROCS(0), 8)
	}
	return 1
}

// apply writes x·W + b for t rows of x (t × in) into y (t × out); each
// worker widens W's rows into room taken from ws.
func (l *linear) apply(ws *workspace, y, x []float32, t int) {
	workers := l.workers(t)
	defer ws.release(ws.mark())
	var room []float32
	if l.wt == nil {
		room = ws.take(workers * rowBlock * l.in)
	}
	pairs := l.pairUp(ws, x, t)
	if workers == 1 {
		l.columns(y, x, pairs, t, 0, l.out, room)
		return
	}
	var wg sync.WaitGroup
	step := (l.out + workers - 1) / workers
	for lo := 0; lo < l.out; lo += step {
		hi := min(lo+step, l.out)
		var buf []float32
		if room != nil {
			buf, room = room[:rowBlock*l.in], room[rowBlock*l.in:]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.columns(y, x, pairs, t, lo, hi, buf)
		}()
	}
	wg.Wait()
}

// pairUp returns the tokens of x that make whole groups of three, packed
// in pairs for the 16-lane kernels in room taken from ws, or nil where
// those kernels do not run. Packing costs one pass over x, against the
// layer's out/4 passes over it.
func (l *linear) pairUp(ws *workspace, x []float32, t int) []float32 {
	three := t / 3 * 3
	if three == 0 || !vecmath.HasAVX512 || l.in%8 != 0 {
		return nil
	}
	pairs := ws.take((three + 1) / 2 * 2 * l.in)
	vecmath.PairUp(pairs, x, l.in, l.in, three)
	return pairs
}

// columns computes outputs lo..hi for every row, four outputs (a block
// of W's rows) at a time so that each weight row is loaded once per
// group of tokens: the tokens of whole groups of three by six or three
// at a time (16-lane kernels over pairs, packed by pairUp, or else the
// 8-lane one over x), and those left over one or two at a time. A
// token's sums are the same whichever kernel makes them, bit for bit:
// groups of three get Dot4x3's, the rest vecmath.Dot's. buf has room for
// rowBlock widened rows when W is int8.
func (l *linear) columns(y, x, pairs []float32, t, lo, hi int, buf []float32) {
	in := l.in
	var sums [16]float32
	three := t / 3 * 3
	j := lo
	for ; j+rowBlock <= hi; j += rowBlock {
		w := l.weights(buf, j, rowBlock)
		if l.q != nil && j+2*rowBlock <= hi {
			// The next block's int8 rows come from memory while this
			// block's products run, instead of stalling its widening.
			fetchAhead(l.q[(j+rowBlock)*in : (j+2*rowBlock)*in])
		}
		i := 0
		if pairs != nil {
			// Six tokens' outputs j..j+3, bias added, straight into y.
			for i+6 <= three && vecmath.Dot4x6(w, in, pairs[i*in:], in, y[i*l.out+j:], l.out, l.b[j:j+4]) {
				i += 6
			}
			if i < three && vecmath.Dot4x4(w, in, pairs[i*in:], in, &sums) {
				l.put(y, &sums, i, 3, j)
				i += 3
			}
		}
		for ; i+3 <= t && vecmath.Dot4x3(w, in, x[i*in:(i+3)*in], in, in, (*[12]float32)(sums[:12])); i += 3 {
			l.put(y, &sums, i, 3, j)
		}
		for ; i < t; i++ {
			if i+1 < t && vecmath.Dot4x2(w, in, [][]float32{x[i*in : (i+1)*in], x[(i+1)*in : (i+2)*in]}, in, (*[8]float32)(sums[:8])) {
				l.put(y, &sums, i, 2, j)
				i++
				continue
			}
			if vecmath.Dot4x2(w, in, [][]float32{x[i*in : (i+1)*in]}, in, (*[8]float32)(sums[:8])) {
				l.put(y, &sums, i, 1, j)
				continue
			}
			xi := x[i*in : (i+1)*in : (i+1)*in]
			for r := range 4 {
				y[i*l.out+j+r] = vecmath.Dot(xi, w[r*in:(r+1)*in]) + l.b[j+r]
			}
		}
	}
	for ; j < hi; j++ {
		w := l.weights(buf, j, 1)
		for i := range t {
			y[i*l.out+j] = vecmath.Dot(x[i*in:(i+1)*in:(i+1)*in], w) + l.b[j]
		}
	}
}

// put writes the sums of n tokens from token i (four per token, for the
// outputs j..j+3, as the kernels leave them) plus the bias into y.
func (l *linear) put(y []float32, sums *[16]float32, i, n, j int) {
	b := l.b[j : j+4 : j+4]
	for c := range n {
		dst := y[(i+c)*l.out+j : (i+c)*l.out+j+4 : (i+c)*l.out+j+4]
		for r := range dst {
			dst[r] = sums[c*4+r] + b[r]
		}
	}
}
