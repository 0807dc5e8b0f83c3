package sentence

import (
	"os"
	"syscall"
)

// cacheSupported: the cache is mapped here.
const cacheSupported = true

// mapFile maps the file at path read-only, pages populated up front (one
// call instead of a fault every 16 pages while the first query runs).
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() < cacheHeader || fi.Size() > 1<<31 {
		return nil, errCacheSize
	}
	return syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
}

func unmapFile(b []byte) { _ = syscall.Munmap(b) }
