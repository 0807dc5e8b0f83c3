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
	for r := range n {
		widen(w[r*in:(r+1)*in], l.q[(j+r)*in:(j+r+1)*in], l.scales[j+r])
	}
	return w
}

// parallelWork is the multiply-adds above which a layer is split across
// cores: below it, starting goroutines costs more than it saves.
const parallelWork = 1 << 20

// apply writes x·W + b for t rows of x (t × in) into y (t × out); each
// worker widens W's rows into room taken from ws.
func (l *linear) apply(ws *workspace, y, x []float32, t int) {
	workers := 1
	if t*l.in*l.out >= parallelWork {
		workers = min(runtime.GOMAXPROCS(0), 8)
	}
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

// pairUp returns the tokens of x that make whole groups of six, packed in
// pairs for the 16-lane kernel in room taken from ws, or nil where that
// kernel does not run. Packing costs one pass over x, against the
// layer's out/4 passes over it.
func (l *linear) pairUp(ws *workspace, x []float32, t int) []float32 {
	six := t / 6 * 6
	if six == 0 || !vecmath.HasAVX512 || l.in%8 != 0 {
		return nil
	}
	pairs := ws.take(six * l.in)
	vecmath.PairUp(pairs, x, l.in, l.in, six/2)
	return pairs
}

// columns computes outputs lo..hi for every row: four outputs by six
// tokens (from pairs, the first tokens packed by PairUp, or nil) or by
// three at a time where the blocked kernels run, so that each weight row
// and each token is loaded once per block; the rest one by one. The sums
// of a token are the same whichever blocked kernel makes them, so the
// six-token one changes no vector. buf has room for rowBlock widened rows
// when W is int8.
func (l *linear) columns(y, x, pairs []float32, t, lo, hi int, buf []float32) {
	in, out := l.in, l.out
	var block [12]float32
	var block6 [24]float32
	j := lo
	for ; j+rowBlock <= hi; j += rowBlock {
		w := l.weights(buf, j, rowBlock)
		b := l.b[j : j+4 : j+4]
		i := 0
		for ; (i+6)*in <= len(pairs) && vecmath.Dot4x6(w, in, pairs[i*in:], in, &block6); i += 6 {
			for c := range 6 {
				dst := y[(i+c)*out+j : (i+c)*out+j+4 : (i+c)*out+j+4]
				for r := range dst {
					dst[r] = block6[c*4+r] + b[r]
				}
			}
		}
		for ; i+3 <= t && vecmath.Dot4x3(w, in, x[i*in:(i+3)*in], in, in, &block); i += 3 {
			for c := range 3 {
				dst := y[(i+c)*out+j : (i+c)*out+j+4 : (i+c)*out+j+4]
				for r := range dst {
					dst[r] = block[c*4+r] + b[r]
				}
			}
		}
		for ; i < t; i++ {
			xi := x[i*in : (i+1)*in : (i+1)*in]
			for r := range 4 {
				y[i*out+j+r] = vecmath.Dot(xi, w[r*in:(r+1)*in]) + b[r]
			}
		}
	}
	for ; j < hi; j++ {
		w := l.weights(buf, j, 1)
		for i := range t {
			y[i*out+j] = vecmath.Dot(x[i*in:(i+1)*in:(i+1)*in], w) + l.b[j]
		}
	}
}
