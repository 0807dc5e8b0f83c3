//go:build !linux

package sentence

// newSlab takes the block from the heap where huge pages are not asked
// for.
func newSlab[T any](n int, _ *T) *slab { return &slab{buf: make([]float32, n)} }
