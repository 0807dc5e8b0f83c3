package sentence

import (
	"runtime"
	"sync"

	"github.com/recall-mem/recall/internal/vecmath"
)

// linear is a dense layer y = x·W + b with W stored transposed (one row
// per output), so that every output is a dot product over contiguous
// memory and each weight row is read once per batch of tokens.
type linear struct {
	in, out int
	wt      []float32 // out × in
	b       []float32 // out
}

// newLinear takes W already transposed (out × in), as the weight file
// stores it.
func newLinear(wt, b Tensor) linear {
	return linear{in: wt.Cols(), out: wt.Rows(), wt: wt.Data, b: b.Data}
}

// parallelWork is the multiply-adds above which a layer is split across
// cores: below it, starting goroutines costs more than it saves.
const parallelWork = 1 << 20

// apply writes x·W + b for t rows of x (t × in) into y (t × out).
func (l *linear) apply(y, x []float32, t int) {
	workers := 1
	if t*l.in*l.out >= parallelWork {
		workers = min(runtime.GOMAXPROCS(0), 8)
	}
	if workers == 1 {
		l.columns(y, x, t, 0, l.out)
		return
	}
	var wg sync.WaitGroup
	step := (l.out + workers - 1) / workers
	for lo := 0; lo < l.out; lo += step {
		hi := min(lo+step, l.out)
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.columns(y, x, t, lo, hi)
		}()
	}
	wg.Wait()
}

// columns computes outputs lo..hi for every row: four outputs by three
// tokens at a time where the blocked kernel runs, so that each weight row
// and each token is loaded once per block; the rest one by one.
func (l *linear) columns(y, x []float32, t, lo, hi int) {
	in, out := l.in, l.out
	var block [12]float32
	j := lo
	for ; j+4 <= hi; j += 4 {
		w := l.wt[j*in : (j+4)*in : (j+4)*in]
		b := l.b[j : j+4 : j+4]
		i := 0
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
		w := l.wt[j*in : (j+1)*in : (j+1)*in]
		for i := range t {
			y[i*out+j] = vecmath.Dot(x[i*in:(i+1)*in:(i+1)*in], w) + l.b[j]
		}
	}
}
