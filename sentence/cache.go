package sentence

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"unsafe"
)

// The weight cache keeps the layers as Load decodes them (every tensor
// but the embedding table, in the order decodeWeights allocates them) in
// a file that later processes map instead of dequantising the layers
// again: mapping 20 MB that the page cache holds costs a fraction of
// zeroing and writing them. The file is one process's memory written out
// (native byte order), so it is valid only for the weights it was made
// from and only on a machine of the same byte order:
//
//	magic "RCLWCAC1", u32 cacheVersion, u32 byte-order mark,
//	32 bytes SHA-256 of the weight file, u64 value count,
//	zero padding to cacheHeader bytes, count × float32
//
// The values start on a page boundary, so that the mapping can be used
// as []float32 directly.
const (
	cacheMagic   = "RCLWCAC1"
	cacheVersion = 1
	cacheBOM     = 0x01020304
	cacheHeader  = 4096
)

var errCacheSize = errors.New("weight cache has the wrong size")

// cacheName is the cache file of these weights; a binary with other
// weights uses another name, so two versions side by side never rebuild
// each other's file.
func cacheName() string { return "use-lite-" + weightSum[:16] + ".f32" }

// cacheHead returns the header of a cache of n values.
func cacheHead(n int) []byte {
	h := make([]byte, cacheHeader)
	copy(h, cacheMagic)
	binary.LittleEndian.PutUint32(h[8:], cacheVersion)
	*(*uint32)(unsafe.Pointer(&h[12])) = cacheBOM // native order
	sum, _ := hex.DecodeString(weightSum)         // TestWeightSumMatchesFile: it is hex
	copy(h[16:48], sum)
	binary.LittleEndian.PutUint64(h[48:], uint64(n))
	return h
}

// cacheValues checks a mapped cache file and returns its values: nil
// when the file is not a cache of these weights in this format.
func cacheValues(b []byte) []float32 {
	if len(b) < cacheHeader || (len(b)-cacheHeader)%4 != 0 {
		return nil
	}
	n := (len(b) - cacheHeader) / 4
	want := cacheHead(n)
	if string(b[:64]) != string(want[:64]) || n == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[cacheHeader])), n)
}

// writeCache writes vals as the cache file at path. It writes a
// temporary file and renames it over path, so a reader maps either a
// whole file or none; a file cut short (a crash before the data reached
// the disk) has the wrong size or header and is rebuilt.
func writeCache(path string, vals []float32) error {
	if len(vals) == 0 {
		return errors.New("nothing to cache")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), cacheName()+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after a successful rename there is nothing left to remove
	body := unsafe.Slice((*byte)(unsafe.Pointer(&vals[0])), len(vals)*4)
	_, err = f.Write(cacheHead(len(vals)))
	if err == nil {
		_, err = f.Write(body)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// cacheAlloc hands out the values of a mapped cache front to back, as
// the slab did when the cache was written; nil once they run out.
type cacheAlloc struct {
	vals []float32
	off  int
}

func (c *cacheAlloc) take(n int) []float32 {
	if c.off+n > len(c.vals) {
		c.off = len(c.vals) + 1 // never all used: the cache does not fit these weights
		return nil
	}
	out := c.vals[c.off : c.off+n : c.off+n]
	c.off += n
	return out
}

// used reports whether every value was handed out, none missing.
func (c *cacheAlloc) used() bool { return c.off == len(c.vals) }
