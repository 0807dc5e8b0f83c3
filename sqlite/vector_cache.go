package sqlite

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"unsafe"
)

// The vector index is cached in a file next to the database, laid out so
// that a new process (a CLI search, a hook) uses it where it lies: the file
// is mapped, and its sections are the index's slices, with no decoding and
// no copy. Opening it costs the same at 10,000 rows as at a million; the
// process then applies what changed in the database since the file was
// written, as any refresh does. The file is only a cache: a missing,
// stale, foreign, torn or corrupt one is ignored and rewritten.
//
// Layout, little-endian, every section aligned for its type:
//
//	0    header (cacheHeaderSize bytes): magic, dim, rows n, the maxSeq and
//	     maxTomb of the database the rows reflect, the file's size, the
//	     CRC-32 of the seqs and scales sections and of the q8 section, the
//	     probe, the rows the codes' mean was taken over (0: no codes), the
//	     CRC-32 of the mean and weights and of the codes, the model and the
//	     store's vector epoch, zero padding, and the CRC-32 of all that in
//	     its last 4 bytes
//	256  seqs: n int64, ascending (a removal finds its row by binary search)
//	     scales: n float32
//	     q8: n × dim int8
//	     when there are codes (vector_codes.go), from the next multiple of 8:
//	     mean: dim float32; weights: n float32; then from the next multiple
//	     of 8, codes: n × codeWords(dim) uint64
//	end  trailer: cacheTrailer and the header's CRC again
//
// The trailer is written last and must repeat the header's CRC, and the
// size must match: a file cut short by a crash is refused. Opening checks
// the CRC of the seqs and scales (12 bytes a row) and of the mean and
// weights (4 bytes a row), not of the vectors or their codes:
// reading every vector to check it would cost what mapping saves. A
// vector or code damaged in place changes which rows the scan finds and
// how it scores them, not what the database holds; VerifyVectorCache
// checks everything. A file of an older version (another magic) is
// rebuilt, never read: version 2 had no codes.

const (
	cacheMagic      = "RCLVIDX3"
	cacheTrailer    = "RCLVEND3"
	cacheHeaderSize = 256
	cacheTailSize   = len(cacheTrailer) + 4
	// cacheEvery is how many changed rows (added vectors plus tombstones)
	// since the file was written make a process write it again.
	cacheEvery = 2000
)

func (db *DB) vectorCachePath() string { return db.Path + "-vectors" }

// littleEndian is whether this machine's integers have the file's byte
// order; where they do not, the file cannot be used in place and the index
// is always built from the database.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// cacheHeader is the decoded header of a cache file.
type cacheHeader struct {
	dim             int
	n               int
	maxSeq, maxTomb int64
	size            int64
	metaCRC, q8CRC  uint32
	probe           cacheProbe
	codedRows       int64 // rows the codes' mean was taken over; 0: no codes
	weightsCRC      uint32
	codesCRC        uint32
	model, epoch    string
}

// cacheProbe ties a file to the history of its database, so that a file
// is checked against the database with two lookups instead of counting
// every row: seqs and tombstone ids are never reused in one database, so
// a database that went back to an older copy of itself and then moved on
// has, at the file's newest row or newest tombstone, another memory or
// another row than the file saw.
type cacheProbe struct {
	lastHash uint64 // hash of the memory and chunk of the file's newest row
	tombSeq  int64  // the row the tombstone maxTomb removed (0: none)
}

// cacheLayout is where a file's sections start, in bytes from its start.
type cacheLayout struct {
	seqs, scales, q8, mean, weights, codes, tail, size int64
}

func layoutOf(n, dim int, coded bool) cacheLayout {
	up8 := func(v int64) int64 { return (v + 7) &^ 7 }
	var l cacheLayout
	l.seqs = cacheHeaderSize
	l.scales = l.seqs + 8*int64(n)
	l.q8 = l.scales + 4*int64(n)
	l.tail = l.q8 + int64(n)*int64(dim)
	if coded {
		l.mean = up8(l.tail)
		l.weights = l.mean + 4*int64(dim)
		l.codes = up8(l.weights + 4*int64(n))
		l.tail = l.codes + 8*int64(n)*int64(codeWords(dim))
	}
	l.size = l.tail + int64(cacheTailSize)
	return l
}

func (h *cacheHeader) encode() ([]byte, error) {
	if 8+4+4+8*4+4+4+8+8+8+4+4+2+len(h.model)+2+len(h.epoch)+4 > cacheHeaderSize {
		return nil, fmt.Errorf("vector cache: model name %q too long", h.model)
	}
	le := binary.LittleEndian
	b := make([]byte, 0, cacheHeaderSize)
	b = append(b, cacheMagic...)
	b = le.AppendUint32(b, uint32(h.dim))
	b = le.AppendUint32(b, 0)
	b = le.AppendUint64(b, uint64(h.n))
	b = le.AppendUint64(b, uint64(h.maxSeq))
	b = le.AppendUint64(b, uint64(h.maxTomb))
	b = le.AppendUint64(b, uint64(h.size))
	b = le.AppendUint32(b, h.metaCRC)
	b = le.AppendUint32(b, h.q8CRC)
	b = le.AppendUint64(b, h.probe.lastHash)
	b = le.AppendUint64(b, uint64(h.probe.tombSeq))
	b = le.AppendUint64(b, uint64(h.codedRows))
	b = le.AppendUint32(b, h.weightsCRC)
	b = le.AppendUint32(b, h.codesCRC)
	b = le.AppendUint16(b, uint16(len(h.model)))
	b = append(b, h.model...)
	b = le.AppendUint16(b, uint16(len(h.epoch)))
	b = append(b, h.epoch...)
	b = b[:cacheHeaderSize-4]
	return le.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

var errBadCache = errors.New("vector cache: malformed")

func decodeCacheHeader(b []byte) (*cacheHeader, error) {
	le := binary.LittleEndian
	if len(b) < cacheHeaderSize || string(b[:len(cacheMagic)]) != cacheMagic ||
		crc32.ChecksumIEEE(b[:cacheHeaderSize-4]) != le.Uint32(b[cacheHeaderSize-4:]) {
		return nil, errBadCache
	}
	r := &cacheReader{b: b[len(cacheMagic) : cacheHeaderSize-4]}
	h := &cacheHeader{dim: int(r.u32())}
	r.u32()
	n := r.u64()
	h.maxSeq, h.maxTomb, h.size = int64(r.u64()), int64(r.u64()), int64(r.u64())
	h.metaCRC, h.q8CRC = r.u32(), r.u32()
	h.probe.lastHash, h.probe.tombSeq = r.u64(), int64(r.u64())
	coded := r.u64()
	h.weightsCRC, h.codesCRC = r.u32(), r.u32()
	h.model, h.epoch = r.str(), r.str()
	if r.err != nil || h.dim <= 0 || h.dim > 1<<16 || n > 1<<40 || coded > 1<<40 ||
		h.size != layoutOf(int(n), h.dim, coded > 0).size {
		return nil, errBadCache
	}
	h.n, h.codedRows = int(n), int64(coded)
	return h, nil
}

// vectorFile is an open cache file: its rows, in place in the mapping.
type vectorFile struct {
	hdr     *cacheHeader
	layout  cacheLayout
	mem     []byte
	seqs    []int64
	scales  []float32
	q8      []int8
	mean    []float32 // nil when the file has no codes
	weights []float32
	codes   []uint64
	release func() error
}

// sections points seqs, scales, q8 and the codes' sections into mem.
func (f *vectorFile) sections() {
	n, dim, l := f.hdr.n, f.hdr.dim, f.layout
	if f.hdr.codedRows > 0 {
		f.mean = unsafe.Slice((*float32)(unsafe.Pointer(&f.mem[l.mean])), dim)
	}
	if n == 0 {
		return
	}
	f.seqs = unsafe.Slice((*int64)(unsafe.Pointer(&f.mem[l.seqs])), n)
	f.scales = unsafe.Slice((*float32)(unsafe.Pointer(&f.mem[l.scales])), n)
	f.q8 = unsafe.Slice((*int8)(unsafe.Pointer(&f.mem[l.q8])), n*dim)
	if f.mean != nil {
		f.weights = unsafe.Slice((*float32)(unsafe.Pointer(&f.mem[l.weights])), n)
		f.codes = unsafe.Slice((*uint64)(unsafe.Pointer(&f.mem[l.codes])), n*codeWords(dim))
	}
}

// meta is the part of the file a CRC is checked for on opening.
func (f *vectorFile) meta() []byte { return f.mem[f.layout.seqs:f.layout.q8] }

func (f *vectorFile) q8Bytes() []byte {
	return f.mem[f.layout.q8 : f.layout.q8+int64(f.hdr.n*f.hdr.dim)]
}

// weightBytes is the codes' mean and weights (nil without codes), checked
// on opening; codeBytes the codes, checked by VerifyVectorCache only.
func (f *vectorFile) weightBytes() []byte {
	if f.hdr.codedRows == 0 {
		return nil
	}
	return f.mem[f.layout.mean : f.layout.weights+4*int64(f.hdr.n)]
}

func (f *vectorFile) codeBytes() []byte {
	if f.hdr.codedRows == 0 {
		return nil
	}
	return f.mem[f.layout.codes:f.layout.tail]
}

// openCache maps the cache file at path and returns an index over it for
// model and dim, or an error for a missing file, another model, or a file
// that is torn or whose row table is damaged.
func openCache(path, model string, dim int) (*vectorIndex, error) {
	if !littleEndian {
		return nil, errors.New("vector cache: not a little-endian machine")
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() < int64(cacheHeaderSize+cacheTailSize) || st.Size() > 1<<46 {
		return nil, errBadCache
	}
	mem, release, err := mapFile(fh, int(st.Size()))
	if err != nil {
		return nil, err
	}
	f := &vectorFile{mem: mem, release: release}
	// The mapping outlives the file handle; it goes when nothing refers
	// to the file any more (an index reset, a process replacing its index).
	runtime.SetFinalizer(f, func(f *vectorFile) { f.release() })
	if f.hdr, err = decodeCacheHeader(mem); err != nil {
		return nil, err
	}
	if f.hdr.size != st.Size() {
		return nil, errBadCache
	}
	tail := mem[len(mem)-cacheTailSize:]
	if string(tail[:len(cacheTrailer)]) != cacheTrailer || string(tail[len(cacheTrailer):]) != string(mem[cacheHeaderSize-4:cacheHeaderSize]) {
		return nil, errBadCache
	}
	if f.hdr.dim != dim || f.hdr.model != model {
		return nil, fmt.Errorf("vector cache: for %s/%d, want %s/%d: %w", f.hdr.model, f.hdr.dim, model, dim, errBadCache)
	}
	f.layout = layoutOf(f.hdr.n, f.hdr.dim, f.hdr.codedRows > 0)
	if crc32.ChecksumIEEE(f.meta()) != f.hdr.metaCRC || crc32.ChecksumIEEE(f.weightBytes()) != f.hdr.weightsCRC {
		return nil, errBadCache
	}
	f.sections()
	x := newVectorIndex(model, dim)
	x.base = f
	if f.mean != nil {
		x.mean, x.codedRows, x.bcodes, x.bweights = f.mean, int(f.hdr.codedRows), f.codes, f.weights
	}
	x.maxSeq, x.maxTomb, x.epoch = f.hdr.maxSeq, f.hdr.maxTomb, f.hdr.epoch
	x.loaded = true
	x.cachedRows = x.maxSeq + x.maxTomb
	x.probe = f.hdr.probe
	return x, nil
}

// probeHash names a row by its memory and chunk.
func probeHash(memoryID string, chunk int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d", memoryID, chunk)
	return h.Sum64()
}

// takeProbe reads, in q, what the probe of a file of x's rows holds.
func (x *vectorIndex) takeProbe(ctx context.Context, q querier) (cacheProbe, error) {
	var p cacheProbe
	if x.len() > 0 {
		var id string
		var chunk int
		err := q.QueryRowContext(ctx, `SELECT memory_id, chunk FROM memory_vectors WHERE seq = ?`, x.lastSeq()).Scan(&id, &chunk)
		if err != nil {
			return p, fmt.Errorf("vector cache probe: %w", err)
		}
		p.lastHash = probeHash(id, chunk)
	}
	if x.maxTomb > 0 {
		err := q.QueryRowContext(ctx, `SELECT vec_seq FROM vector_tombstones WHERE id = ?`, x.maxTomb).Scan(&p.tombSeq)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return p, fmt.Errorf("vector cache probe: %w", err)
		}
	}
	return p, nil
}

// lastSeq is the largest seq of the rows (the index is not empty).
func (x *vectorIndex) lastSeq() int64 {
	var last int64
	if x.base != nil {
		for r := len(x.base.seqs) - 1; r >= 0; r-- {
			if !x.isDead(r) {
				last = x.base.seqs[r]
				break
			}
		}
	}
	for _, seq := range x.seqs {
		last = max(last, seq)
	}
	return last
}

// checkProbe reports whether the database, read in q, is the one whose
// history the index opened from a file belongs to: the file's newest row
// is there with the same memory and chunk, or was deleted since; the row
// its last tombstone removed is the same, unless that tombstone was pruned.
func (x *vectorIndex) checkProbe(ctx context.Context, q querier) (bool, error) {
	if x.baseLen() > 0 {
		last := x.base.seqs[len(x.base.seqs)-1]
		var id string
		var chunk int
		err := q.QueryRowContext(ctx, `SELECT memory_id, chunk FROM memory_vectors WHERE seq = ?`, last).Scan(&id, &chunk)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			var gone bool
			if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM vector_tombstones WHERE id > ? AND vec_seq = ?)`, x.maxTomb, last).Scan(&gone); err != nil || !gone {
				return false, err
			}
		case err != nil:
			return false, err
		case probeHash(id, chunk) != x.probe.lastHash:
			return false, nil
		}
	}
	if x.maxTomb > 0 {
		var seq int64
		err := q.QueryRowContext(ctx, `SELECT vec_seq FROM vector_tombstones WHERE id = ?`, x.maxTomb).Scan(&seq)
		if err == nil && seq != x.probe.tombSeq {
			return false, nil
		} else if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return false, err
		}
	}
	return true, nil
}

// writeCache stores the index in path, crash-safe: a temporary file in the
// same directory, synced, then renamed over the old one. Rows go out in
// seq order.
func (x *vectorIndex) writeCache(path string, probe cacheProbe) (err error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !littleEndian {
		return errors.New("vector cache: not a little-endian machine")
	}
	rows := x.liveRows()
	h := &cacheHeader{dim: x.dim, n: len(rows), maxSeq: x.maxSeq, maxTomb: x.maxTomb,
		probe: probe, model: x.model, epoch: x.epoch}
	if x.mean != nil {
		h.codedRows = int64(max(x.codedRows, 1)) // 0 says there are no codes
	}
	h.size = layoutOf(len(rows), x.dim, h.codedRows > 0).size
	if _, err := h.encode(); err != nil {
		return err
	}
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
	// The header's CRCs are known only at the end: it is written then.
	if _, err := f.Seek(cacheHeaderSize, io.SeekStart); err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	meta, q8 := crc32.NewIEEE(), crc32.NewIEEE()
	mw := io.MultiWriter(w, meta)
	le := binary.LittleEndian
	buf := make([]byte, 0, 64<<10)
	for i, r := range rows {
		buf = le.AppendUint64(buf, uint64(x.rowSeq(r)))
		if len(buf) >= 60<<10 || i == len(rows)-1 {
			mw.Write(buf)
			buf = buf[:0]
		}
	}
	for i, r := range rows {
		buf = le.AppendUint32(buf, math.Float32bits(x.rowScale(r)))
		if len(buf) >= 60<<10 || i == len(rows)-1 {
			mw.Write(buf)
			buf = buf[:0]
		}
	}
	qw := io.MultiWriter(w, q8)
	for _, r := range rows {
		qw.Write(int8AsBytes(x.rowQ8(r)))
	}
	h.metaCRC, h.q8CRC = meta.Sum32(), q8.Sum32()
	if h.codedRows > 0 {
		h.weightsCRC, h.codesCRC = x.writeCodes(w, rows)
	}
	hdr, _ := h.encode()
	w.WriteString(cacheTrailer)
	w.Write(hdr[cacheHeaderSize-4:])
	if err := w.Flush(); err != nil {
		return err
	}
	if _, err := f.WriteAt(hdr, 0); err != nil {
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

// writeCodes writes the codes' sections of a file of rows, which follow
// its q8 section, and returns the CRC-32 of the mean and weights and that
// of the codes. Errors stay in w (a bufio.Writer), for its Flush.
func (x *vectorIndex) writeCodes(w io.Writer, rows []int) (weightsCRC, codesCRC uint32) {
	l := layoutOf(len(rows), x.dim, true)
	w.Write(make([]byte, l.mean-(l.q8+int64(len(rows))*int64(x.dim))))
	wc, cc := crc32.NewIEEE(), crc32.NewIEEE()
	le := binary.LittleEndian
	buf := make([]byte, 0, 64<<10)
	out := io.MultiWriter(w, wc)
	flush := func(min int) {
		if len(buf) >= min {
			out.Write(buf)
			buf = buf[:0]
		}
	}
	for _, v := range x.mean {
		buf = le.AppendUint32(buf, math.Float32bits(v))
	}
	for _, r := range rows {
		buf = le.AppendUint32(buf, math.Float32bits(x.rowWeight(r)))
		flush(60 << 10)
	}
	flush(0)
	w.Write(make([]byte, l.codes-(l.weights+4*int64(len(rows)))))
	out = io.MultiWriter(w, cc)
	for _, r := range rows {
		for _, c := range x.rowCode(r) {
			buf = le.AppendUint64(buf, c)
		}
		flush(60 << 10)
	}
	flush(0)
	return wc.Sum32(), cc.Sum32()
}

// liveRows lists the index's rows (see rowSeq) in seq order: the file's
// rows that are not removed, then the rows added since, which all have
// larger seqs.
func (x *vectorIndex) liveRows() []int {
	nb := x.baseLen()
	rows := make([]int, 0, x.len())
	for r := 0; r < nb; r++ {
		if !x.isDead(r) {
			rows = append(rows, r)
		}
	}
	tail := make([]int, len(x.seqs))
	for i := range tail {
		tail[i] = nb + i
	}
	slices.SortFunc(tail, func(a, b int) int { return int(x.seqs[a-nb] - x.seqs[b-nb]) })
	return append(rows, tail...)
}

func int8AsBytes(v []int8) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v))
}

// VerifyVectorCache checks the whole cache file, vectors included, and
// that it holds exactly the rows of the database at the point it names:
// every seq it has is in memory_vectors unless a later tombstone removed
// it, and every row of its model up to that point is in it. A missing
// file is sound.
func (db *DB) VerifyVectorCache() error {
	fh, err := os.Open(db.vectorCachePath())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	defer fh.Close()
	hdr := make([]byte, cacheHeaderSize)
	if _, err := io.ReadFull(fh, hdr); err != nil {
		return fmt.Errorf("vector cache: %w", err)
	}
	h, err := decodeCacheHeader(hdr)
	if err != nil {
		return err
	}
	x, err := openCache(db.vectorCachePath(), h.model, h.dim)
	if err != nil {
		return err
	}
	f := x.base
	if crc32.ChecksumIEEE(f.q8Bytes()) != h.q8CRC {
		return fmt.Errorf("vector cache: vectors damaged: %w", errBadCache)
	}
	if crc32.ChecksumIEEE(f.codeBytes()) != h.codesCRC {
		return fmt.Errorf("vector cache: codes damaged: %w", errBadCache)
	}
	if x.mean != nil {
		code := make([]uint64, codeWords(x.dim))
		for r := range f.seqs {
			if signCode(code, x.rowQ8(r), x.rowScale(r), x.mean) != x.rowWeight(r) || !slices.Equal(code, x.rowCode(r)) {
				return fmt.Errorf("vector cache: the code of row %d is not its vector's: %w", f.seqs[r], errBadCache)
			}
		}
	}
	if !slices.IsSorted(f.seqs) {
		return fmt.Errorf("vector cache: rows out of order: %w", errBadCache)
	}
	var epoch string
	if err := db.read.QueryRow(`SELECT COALESCE((SELECT value FROM store_meta WHERE key = 'vector_epoch'), '')`).Scan(&epoch); err != nil {
		return err
	}
	if epoch != h.epoch {
		return nil // another store's or an older epoch's file: never used
	}
	// The file must hold every row of its model the database has up to
	// its maxSeq, and beyond those only rows deleted since (tombstones
	// after its maxTomb).
	live, err := querySeqs(db, `SELECT seq FROM memory_vectors WHERE model = ? AND dim = ? AND seq <= ? ORDER BY seq`, h.model, h.dim, h.maxSeq)
	if err != nil {
		return err
	}
	gone, err := querySeqs(db, `SELECT vec_seq FROM vector_tombstones WHERE id > ? ORDER BY vec_seq`, h.maxTomb)
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(f)
	for _, seq := range live {
		if _, ok := slices.BinarySearch(f.seqs, seq); !ok {
			return fmt.Errorf("vector cache: row %d of the database is missing", seq)
		}
	}
	for _, seq := range f.seqs {
		_, inLive := slices.BinarySearch(live, seq)
		_, inGone := slices.BinarySearch(gone, seq)
		if !inLive && !inGone {
			return fmt.Errorf("vector cache: row %d is not in the database", seq)
		}
	}
	return nil
}

func querySeqs(db *DB, query string, args ...any) ([]int64, error) {
	rows, err := db.read.Query(query, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(r scanner) (seq int64, err error) { return seq, r.Scan(&seq) })
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

func (r *cacheReader) u16() uint16 {
	if b := r.bytes(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
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
	return string(r.bytes(int(r.u16())))
}

// DropVectorCache deletes the cached vector index file. A purge calls it so
// that no trace of purged memories outlives them there; the next search
// rebuilds the cache from the database. This process's index lets go of
// its mapping of the file too, so that the deleted file's blocks are
// freed when the mapping goes (other processes let go when they exit or
// next rebuild).
func (db *DB) DropVectorCache() error {
	if s := db.vectors; s != nil {
		s.mu.Lock()
		s.index.Store(nil)
		s.mu.Unlock()
	}
	err := os.Remove(db.vectorCachePath())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
