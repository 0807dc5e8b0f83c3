package sentence

import (
	"math"
	"sync"
	"sync/atomic"
)

// timing is the sinusoidal position signal of the graph: for position p,
// sin(p·ts) for each timescale, then cos(p·ts). It is the same for every
// pass, so each position's values are computed once per process, the
// first time a pass reaches that position, instead of 2·128 calls to sin
// and cos per token per pass.
type timing struct {
	mu    sync.Mutex
	ready atomic.Int64 // positions filled; sig is written before it grows
	sig   []float32    // maxTokens rows of 2·len(timescales)
}

// rows returns the signal of positions 0..t-1 (t ≤ maxTokens), one row of
// 2·len(timescales) each, to be read only.
func (s *timing) rows(t int, timescales []float32) []float32 {
	half := len(timescales)
	if int(s.ready.Load()) < t {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.sig == nil {
			s.sig = make([]float32, maxTokens*2*half)
		}
		for p := int(s.ready.Load()); p < t; p++ {
			row := s.sig[p*2*half : (p+1)*2*half]
			for i, ts := range timescales {
				a := float64(float32(p) * ts)
				row[i] = float32(math.Sin(a))
				row[half+i] = float32(math.Cos(a))
			}
			s.ready.Store(int64(p + 1))
		}
	}
	return s.sig[: t*2*half : t*2*half]
}
