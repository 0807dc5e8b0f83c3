package sentence

import (
	"runtime"
	"syscall"
	"unsafe"
)

// newSlab maps an anonymous block of n float32s outside the Go heap and
// asks for transparent huge pages on it (the usual "madvise" setting
// gives them only to blocks that ask). The block is unmapped once owner
// is unreachable. Any failure falls back to the heap.
func newSlab[T any](n int, owner *T) *slab {
	b, err := syscall.Mmap(-1, 0, n*4, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil || n == 0 {
		return &slab{}
	}
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE; only a hint
	runtime.AddCleanup(owner, func(b []byte) { _ = syscall.Munmap(b) }, b)
	return &slab{buf: unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n)}
}
