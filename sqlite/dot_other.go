//go:build !amd64

package sqlite

func dotI8(q []float32, row []int8) float32 { return dotI8Go(q, row) }

// hasFMA is false: the plain-Go dense scan is slower than the sparse one
// for queries with few non-zero components.
const hasFMA = false
