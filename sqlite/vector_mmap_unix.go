//go:build unix

package sqlite

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps f read-only. The pages are the kernel's page cache, shared
// by every process that maps the file, and only those a scan reads are
// brought in: opening costs the same at any size. Cache files are never
// written in place (a new one is renamed over the old), so a mapping
// keeps seeing the file it opened.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	mem, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return mem, func() error { return unix.Munmap(mem) }, nil
}
