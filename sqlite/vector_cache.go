package sqlite

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
)

// The vector index is cached in a file next to the database so that a new
// process (a CLI search, a hook) does not rebuild it from every row: it
// reads the file in one go, then applies what changed since, as any
// refresh does. The file is only a cache: a missing, stale, foreign or
// corrupt one is ignored and rewritten.

const (
	cacheMagic = "RCLVIDX1"
	// cacheEvery is how many changed rows (added vectors plus tombstones)
	// since the file was written make a process write it again.
	cacheEvery = 2000
)

func (db *DB) vectorCachePath() string { return db.Path + "-vectors" }

// writeCache stores the index in path, crash-safe: a temporary file in the
// same directory, synced, then renamed over the old one.
func (x *vectorIndex) writeCache(path string) (err error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	crc := crc32.NewIEEE()
	w := bufio.NewWriterSize(io.MultiWriter(f, crc), 1<<20)
	le := binary.LittleEndian
	var hdr []byte
	hdr = append(hdr, cacheMagic...)
	hdr = le.AppendUint32(hdr, uint32(x.dim))
	hdr = le.AppendUint64(hdr, uint64(x.len()))
	hdr = le.AppendUint64(hdr, uint64(x.maxSeq))
	hdr = le.AppendUint64(hdr, uint64(x.maxTomb))
	hdr = appendString(hdr, x.model)
	hdr = appendString(hdr, x.epoch)
	w.Write(hdr)
	buf := make([]byte, 0, 64<<10)
	flush := func() {
		w.Write(buf)
		buf = buf[:0]
	}
	for i, seq := range x.seqs {
		buf = le.AppendUint64(buf, uint64(seq))
		buf = appendString(buf, x.ids[i])
		buf = le.AppendUint32(buf, math.Float32bits(x.scales[i]))
		if len(buf) > 60<<10 {
			flush()
		}
	}
	flush()
	for i := 0; i < len(x.q8); i += 64 << 10 {
		for _, v := range x.q8[i:min(i+64<<10, len(x.q8))] {
			buf = append(buf, byte(v))
		}
		flush()
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if _, err := f.Write(le.AppendUint32(nil, crc.Sum32())); err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

func appendString(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

var errBadCache = errors.New("vector cache: malformed")

// readCache loads an index for model and dim from path. It returns an
// error for a missing file, another model, or any damage.
func readCache(path, model string, dim int) (*vectorIndex, error) {
	buf, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(buf) < len(cacheMagic)+4 || string(buf[:len(cacheMagic)]) != cacheMagic {
		return nil, errBadCache
	}
	le := binary.LittleEndian
	body, sum := buf[:len(buf)-4], le.Uint32(buf[len(buf)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errBadCache
	}
	r := &cacheReader{b: body[len(cacheMagic):]}
	fdim, n := int(r.u32()), r.u64()
	x := newVectorIndex(model, fdim)
	x.maxSeq, x.maxTomb = int64(r.u64()), int64(r.u64())
	x.model, x.epoch = r.str(), r.str()
	if r.err != nil || fdim != dim || x.model != model || n > uint64(len(body)) {
		return nil, fmt.Errorf("vector cache: for %s/%d, want %s/%d: %w", x.model, fdim, model, dim, errBadCache)
	}
	x.q8 = make([]int8, 0, int(n)*dim)
	x.scales, x.seqs, x.ids = make([]float32, 0, n), make([]int64, 0, n), make([]string, 0, n)
	for i := uint64(0); i < n; i++ {
		seq, id, scale := int64(r.u64()), r.str(), math.Float32frombits(r.u32())
		x.slot[seq] = len(x.seqs)
		x.seqs, x.ids, x.scales = append(x.seqs, seq), append(x.ids, id), append(x.scales, scale)
	}
	raw := r.bytes(int(n) * dim)
	if r.err != nil || len(r.b) != 0 {
		return nil, errBadCache
	}
	for _, b := range raw {
		x.q8 = append(x.q8, int8(b))
	}
	x.loaded = true
	x.cachedRows = x.maxSeq + x.maxTomb
	return x, nil
}

// cacheReader decodes the cache's little-endian fields, remembering the
// first error instead of panicking on a short buffer.
type cacheReader struct {
	b   []byte
	err error
}

func (r *cacheReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errBadCache
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *cacheReader) u32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *cacheReader) u64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *cacheReader) str() string {
	n := r.u32()
	if n > 1<<16 {
		r.err = errBadCache
		return ""
	}
	return string(r.bytes(int(n)))
}

// DropVectorCache deletes the cached vector index file. A purge calls it so
// that no trace of purged memories outlives them there; the next search
// rebuilds the cache from the database.
func (db *DB) DropVectorCache() error {
	err := os.Remove(db.vectorCachePath())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
