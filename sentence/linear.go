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

// columns computes outputs lo..hi for every row.
func (l *linear) columns(y, x []float32, t, lo, hi int) {
	in, out := l.in, l.out
	var four [4]float32
	for j := lo; j < hi; j++ {
		w := l.wt[j*in : (j+1)*in : (j+1)*in]
		bias := l.b[j]
		i := 0
		for ; i+4 <= t && vecmath.Dot4(w, x[i*in:], in, &four); i += 4 {
			for r, v := range four {
				y[(i+r)*out+j] = v + bias
			}
		}
		for ; i < t; i++ {
			y[i*out+j] = vecmath.Dot(x[i*in:(i+1)*in:(i+1)*in], w) + bias
		}
	}
}
