//go:build !amd64

package vecmath

import "github.com/recall-mem/recall"

// HasFMA is false: there are no kernels for this architecture.
const HasFMA = false

// Dot is the inner product of two equal-length vectors.
func Dot(a, b []float32) float32 { return recall.Dot(a, b) }

// Dot4 reports false: there is no four-row kernel here.
func Dot4(w, x []float32, stride int, out *[4]float32) bool { return false }

// DotI8 is the inner product of a float32 query and an int8 row.
func DotI8(q []float32, row []int8) float32 { return dotI8Go(q, row) }
