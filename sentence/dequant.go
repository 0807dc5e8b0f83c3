package sentence

import (
	"sync"
	"sync/atomic"
)

// dequantJob is a run of whole rows of one tensor to dequantise: scales
// are those of its rows (per-row form) or of every column.
type dequantJob struct {
	dst    []float32
	q      []byte
	scales []float32
	cols   int
	form   byte
}

// dequantChunk is about how many values a job holds: small enough that
// two workers finish together, large enough that handing out jobs costs
// nothing next to them.
const dequantChunk = 1 << 16

// splitDequant appends the jobs of one tensor, in runs of whole rows.
func splitDequant(work []dequantJob, dst []float32, q []byte, scales []float32, cols int, form byte) []dequantJob {
	if cols == 0 {
		return work
	}
	rows := len(q) / cols
	step := max(1, dequantChunk/cols)
	for lo := 0; lo < rows; lo += step {
		hi := min(lo+step, rows)
		j := dequantJob{dst: dst[lo*cols : hi*cols], q: q[lo*cols : hi*cols], scales: scales, cols: cols, form: form}
		if form != FormInt8Col {
			j.scales = scales[lo:hi]
		}
		work = append(work, j)
	}
	return work
}

// runDequant runs the jobs on workers goroutines (the caller's among
// them).
func runDequant(work []dequantJob, workers int) {
	var next atomic.Int64
	run := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(work) {
				return
			}
			j := work[i]
			dequantise(j.dst, j.q, j.scales, j.cols, j.form)
		}
	}
	var wg sync.WaitGroup
	for range min(workers, len(work)) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run()
		}()
	}
	run()
	wg.Wait()
}
