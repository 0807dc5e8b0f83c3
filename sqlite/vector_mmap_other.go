//go:build !unix

package sqlite

import (
	"io"
	"os"
	"unsafe"
)

// mapFile reads f in one call where there is no mmap: the buffer is then
// used in place, as a mapping would be.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	// Allocated as uint64s so that the int64 and float32 sections are aligned.
	words := make([]uint64, (size+7)/8)
	mem := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), size)
	if _, err := io.ReadFull(f, mem); err != nil {
		return nil, nil, err
	}
	return mem, func() error { return nil }, nil
}
