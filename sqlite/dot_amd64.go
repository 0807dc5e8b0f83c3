package sqlite

import "golang.org/x/sys/cpu"

// hasFMA reports whether the AVX2/FMA scan kernel can run here.
var hasFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func dotI8FMA(q *float32, row *int8, n int) float32

// dotI8 is the inner product of a float32 query and an int8 row of the
// same length: the dense scan's inner loop, eight lanes at a time where
// the CPU has FMA (a sentence encoder's 512-d queries are dense).
func dotI8(q []float32, row []int8) float32 {
	n := len(row) &^ 31
	if !hasFMA || n == 0 {
		return dotI8Go(q, row)
	}
	return dotI8FMA(&q[0], &row[0], n) + dotI8Go(q[n:], row[n:])
}
