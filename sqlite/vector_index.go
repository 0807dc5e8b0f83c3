package sqlite

import (
	"cmp"
	"container/heap"
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/vecmath"
)

// vectorIndex is an in-memory index of every vector of one model, scanned
// in full for each query: no approximate structure, so nothing is missed
// for being in the wrong cell.
//
// Rows are held as int8 with one scale per row, in one contiguous slice: a
// quarter of the memory of float32, so a scan reads a quarter of the
// cache lines and the index loads (and caches, see vector_cache.go) four
// times faster. The scan's best candidates, many more than asked for, are
// re-scored in float32 from the same int8 rows (rescore), as the stored
// vectors are int8 with this very quantisation (vector_codec.go).
type vectorIndex struct {
	model string
	dim   int

	// base, when the index was opened from the cache file, holds that
	// file's rows in place (rows 0 to baseLen()-1, in seq order); dead
	// marks those removed since. It is never written.
	base  *vectorFile
	dead  []uint64 // bit per base row
	nDead int

	// The rows added since (all of them when there is no base), after the
	// base rows in row numbering.
	q8     []int8        // len(seqs) × dim
	scales []float32     // per row: the float value of an int8 step
	seqs   []int64       // memory_vectors.seq of each row
	slot   map[int64]int // seq → row in seqs

	// Sign codes of every row (vector_codes.go), kept once the index is
	// large enough for the prefilter to pay; nil mean: none. bcodes and
	// bweights are the base rows' (in the file, or built here), codes and
	// weights those of the rows added since, parallel to seqs.
	mean              []float32
	codedRows         int // live rows when mean was taken
	bcodes, codes     []uint64
	bweights, weights []float32

	epoch           string // store_meta vector_epoch the rows belong to
	maxSeq, maxTomb int64  // what the index has seen
	loaded          bool
	cachedRows      int64      // maxSeq+maxTomb when the cache file was last written
	probe           cacheProbe // of the file base came from

	// samples are the prefilter's samples of the codes (vector_prefilter.go),
	// dropped by every change of the rows.
	samples sampleCache

	mu sync.RWMutex // guards the fields above against concurrent scans
}

func newVectorIndex(model string, dim int) *vectorIndex {
	return &vectorIndex{model: model, dim: dim, slot: map[int64]int{}}
}

func (x *vectorIndex) baseLen() int {
	if x.base == nil {
		return 0
	}
	return len(x.base.seqs)
}

func (x *vectorIndex) len() int { return x.baseLen() - x.nDead + len(x.seqs) }

func (x *vectorIndex) isDead(r int) bool { return x.dead != nil && x.dead[r/64]&(1<<(r%64)) != 0 }

// rowSeq, rowScale and rowQ8 read row r, a base row or one added since.
func (x *vectorIndex) rowSeq(r int) int64 {
	if nb := x.baseLen(); r < nb {
		return x.base.seqs[r]
	} else {
		return x.seqs[r-nb]
	}
}

func (x *vectorIndex) rowScale(r int) float32 {
	if nb := x.baseLen(); r < nb {
		return x.base.scales[r]
	} else {
		return x.scales[r-nb]
	}
}

func (x *vectorIndex) rowQ8(r int) []int8 {
	if nb := x.baseLen(); r < nb {
		return x.base.q8[r*x.dim : (r+1)*x.dim]
	} else {
		r -= nb
		return x.q8[r*x.dim : (r+1)*x.dim]
	}
}

func (x *vectorIndex) reset() {
	x.samples.drop()
	x.base, x.dead, x.nDead = nil, nil, 0
	x.q8, x.scales, x.seqs = nil, nil, nil
	x.slot, x.maxSeq, x.maxTomb, x.loaded, x.cachedRows = map[int64]int{}, 0, 0, false, 0
	x.mean, x.codedRows, x.bcodes, x.codes, x.bweights, x.weights = nil, 0, nil, nil, nil, nil
}

// refresh applies the changes since the last refresh, read in one snapshot
// q: tombstones remove rows, rows with a larger seq are added. It reloads
// everything when the tombstones it needs were pruned or the store is not
// the one it was loaded from. It reports whether anything changed.
func (x *vectorIndex) refresh(ctx context.Context, q *sql.Tx) (bool, error) {
	st, err := readIndexStamp(ctx, q)
	if err != nil {
		return false, err
	}
	if x.current(st) {
		// Taking the write lock would wait for every scan in flight and
		// hold up every new one: with nothing to apply, it is not taken.
		return false, nil
	}
	maxSeq, maxTomb, minTomb, epoch := st.maxSeq, st.maxTomb, st.minTomb, st.epoch
	var count int64
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.loaded && epoch == x.epoch && maxSeq == x.maxSeq && maxTomb == x.maxTomb {
		return false, nil
	}
	if x.loaded && (epoch != x.epoch || minTomb > x.maxTomb+1 || maxSeq < x.maxSeq || maxTomb < x.maxTomb) {
		x.reset()
	}
	if x.loaded && maxTomb > x.maxTomb {
		if err := x.applyTombstones(ctx, q); err != nil {
			return false, err
		}
	}
	if !x.loaded {
		// Size the slices once: growing a slice of hundreds of megabytes
		// by doubling copies it over and over.
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_vectors WHERE model = ? AND dim = ?`, x.model, x.dim).Scan(&count); err != nil {
			return false, err
		}
		x.q8 = make([]int8, 0, count*int64(x.dim))
		x.scales, x.seqs = make([]float32, 0, count), make([]int64, 0, count)
	}
	if err := x.load(ctx, q); err != nil {
		return false, err
	}
	x.ensureCodes()
	x.epoch, x.maxSeq, x.maxTomb, x.loaded = epoch, maxSeq, maxTomb, true
	return true, nil
}

// indexStamp is what tells whether the index has seen every change: the
// newest vector row and tombstone, and the history they belong to.
type indexStamp struct {
	maxSeq, maxTomb, minTomb int64
	epoch                    string
}

// indexStampColumns select an indexStamp; dest lists where they go.
const indexStampColumns = `
		COALESCE((SELECT MAX(seq) FROM memory_vectors), 0),
		COALESCE((SELECT MAX(id) FROM vector_tombstones), 0),
		COALESCE((SELECT MIN(id) FROM vector_tombstones), 0),
		COALESCE((SELECT value FROM store_meta WHERE key = 'vector_epoch'), '')`

func (st *indexStamp) dest() []any { return []any{&st.maxSeq, &st.maxTomb, &st.minTomb, &st.epoch} }

func readIndexStamp(ctx context.Context, q querier) (indexStamp, error) {
	var st indexStamp
	err := q.QueryRowContext(ctx, `SELECT`+indexStampColumns).Scan(st.dest()...)
	return st, err
}

// current reports whether the index has applied everything up to st. It
// takes the read lock only, so that it runs beside scans.
func (x *vectorIndex) current(st indexStamp) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.loaded && st.epoch == x.epoch && st.maxSeq == x.maxSeq && st.maxTomb == x.maxTomb
}

func (x *vectorIndex) applyTombstones(ctx context.Context, q *sql.Tx) error {
	rows, err := q.QueryContext(ctx, `SELECT vec_seq FROM vector_tombstones WHERE id > ?`, x.maxTomb)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var seq int64
		if err := rows.Scan(&seq); err != nil {
			return err
		}
		x.remove(seq)
	}
	return rows.Err()
}

// remove drops the row of seq: a base row is marked dead, a row added since
// is replaced by the last one.
func (x *vectorIndex) remove(seq int64) {
	x.samples.drop()
	i, ok := x.slot[seq]
	if !ok {
		if x.base == nil {
			return
		}
		r, found := slices.BinarySearch(x.base.seqs, seq)
		if !found || x.isDead(r) {
			return
		}
		if x.dead == nil {
			x.dead = make([]uint64, (len(x.base.seqs)+63)/64)
		}
		x.dead[r/64] |= 1 << (r % 64)
		x.nDead++
		return
	}
	last := len(x.seqs) - 1
	if i != last {
		copy(x.q8[i*x.dim:(i+1)*x.dim], x.q8[last*x.dim:])
		x.scales[i], x.seqs[i] = x.scales[last], x.seqs[last]
		x.slot[x.seqs[i]] = i
		if x.mean != nil {
			words := codeWords(x.dim)
			copy(x.codes[i*words:(i+1)*words], x.codes[last*words:])
			x.weights[i] = x.weights[last]
		}
	}
	if x.mean != nil {
		x.codes, x.weights = x.codes[:last*codeWords(x.dim)], x.weights[:last]
	}
	delete(x.slot, seq)
	x.q8 = x.q8[:last*x.dim]
	x.scales, x.seqs = x.scales[:last], x.seqs[:last]
}

// load appends the rows of this model with seq beyond what was seen.
func (x *vectorIndex) load(ctx context.Context, q *sql.Tx) error {
	rows, err := q.QueryContext(ctx, `SELECT seq, vec FROM memory_vectors
		WHERE seq > ? AND model = ? AND dim = ? ORDER BY seq`, x.maxSeq, x.model, x.dim)
	if err != nil {
		return err
	}
	defer rows.Close()
	var blob sql.RawBytes
	v := make([]float32, x.dim)
	for rows.Next() {
		var seq int64
		if err := rows.Scan(&seq, &blob); err != nil {
			return err
		}
		if !decodeVector(v, blob) {
			return fmt.Errorf("vector %d has %d bytes, want %d or %d", seq, len(blob), x.dim*2, x.dim*4)
		}
		x.add(seq, v)
	}
	return rows.Err()
}

// add appends the int8 quantisation of v (symmetric, one scale per row).
func (x *vectorIndex) add(seq int64, v []float32) {
	x.samples.drop()
	n := len(x.q8)
	x.q8 = append(x.q8, make([]int8, x.dim)...)
	scale := quantizeRow(x.q8[n:], v)
	x.slot[seq] = len(x.seqs)
	x.scales = append(x.scales, scale)
	x.seqs = append(x.seqs, seq)
	x.addCode()
}

// candidate is a row's seq, its approximate similarity (the scan's) and
// the re-score: the inner product of the query with the row as stored.
type candidate struct {
	seq          int64
	score, exact float32
}

// scored is a row and its approximate similarity to the query.
type scored struct {
	row   int
	score float32
}

// minHeap keeps the best rows seen, worst on top.
type minHeap []scored

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(v any)        { *h = append(*h, v.(scored)) }
func (h *minHeap) Pop() any          { old := *h; v := old[len(old)-1]; *h = old[:len(old)-1]; return v }

// up moves element j towards the root as container/heap's Push does, the
// same comparisons and swaps, so that the heap holds its rows in the same
// places (rows of equal score leave it in the same order).
func (h minHeap) up(j int) {
	for {
		i := (j - 1) / 2 // parent
		if i == j || !h.Less(j, i) {
			break
		}
		h.Swap(i, j)
		j = i
	}
}

// minParallelRows is the index size below which one goroutine is faster.
const minParallelRows = 4096

// candidates returns the keep rows with the highest approximate
// similarity to query, best first, scanning in parallel over cores. A
// large index with codes is scanned through them first (prefilter).
func (x *vectorIndex) candidates(query []float32, keep int) []candidate {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.find(query, keep, x.prefilterSize(query, keep))
}

// find is candidates with the prefilter's size m given: 0 scans every
// row's int8 vector. The caller holds the read lock.
func (x *vectorIndex) find(query []float32, keep, m int) []candidate {
	defer runtime.KeepAlive(x.base) // the mapping stays while its rows are read
	n := x.baseLen() + len(x.seqs)
	workers := runtime.GOMAXPROCS(0)
	if n < minParallelRows {
		workers = 1
	}
	// Short queries of the hashing embedder touch a few dozen dimensions:
	// scoring only those is the same sum with a fraction of the work,
	// unless the dense scan runs on the FMA kernel, which is faster still
	// (100,000 × 384 rows: 1.6 ms dense against 2.3 ms for 40 non-zero).
	var nz []int32
	var qv []float32
	sparse := !vecmath.HasFMA && nonZeros(query)*3 < len(query)
	if sparse {
		nz, qv = nonZero(query)
	}
	var cq *codeQuery
	if m > 0 {
		cq = newCodeQuery(query)
	}
	parts := make([]minHeap, workers)
	var wg sync.WaitGroup
	per := (n + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, n)
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			h := make(minHeap, 0, keep+1)
			if cq != nil {
				x.prefilter(&h, cq, query, keep, (m+workers-1)/workers, lo, hi)
				parts[w] = h
				return
			}
			// A worker's rows may span the base and the rows added since.
			for _, sg := range x.segments(lo, hi) {
				if sparse {
					sg.scanSparse(&h, nz, qv, keep)
				} else {
					sg.scan(&h, query, keep)
				}
			}
			parts[w] = h
		}(w, lo, max(lo, hi))
	}
	wg.Wait()
	var all []scored
	for _, p := range parts {
		all = append(all, p...)
	}
	slices.SortFunc(all, func(a, b scored) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(x.rowSeq(a.row), x.rowSeq(b.row))
	})
	out := make([]candidate, 0, min(keep, len(all)))
	v := make([]float32, x.dim)
	for _, s := range all[:min(keep, len(all))] {
		out = append(out, candidate{seq: x.rowSeq(s.row), score: s.score, exact: x.rescore(query, s.row, v)})
	}
	return out
}

// nonZeros counts the non-zero components of query.
func nonZeros(query []float32) int {
	n := 0
	for _, v := range query {
		if v != 0 {
			n++
		}
	}
	return n
}

// nonZero lists the non-zero components of query: their indexes and values.
func nonZero(query []float32) (nz []int32, qv []float32) {
	for j, v := range query {
		if v != 0 {
			nz, qv = append(nz, int32(j)), append(qv, v)
		}
	}
	return nz, qv
}

// rescore is the inner product of query with row r widened to float32 as
// decodeVector widens the stored vector (v is scratch of x.dim). A row is
// the stored vector's own bytes and scale: a stored int8 vector's scale is
// its peak over 127, and quantising the widened vector again gives that
// scale and those bytes back (every float32 peak was checked), so this is
// the score VectorService.rerank once computed from the row read back from
// SQLite, bit for bit, without the read.
func (x *vectorIndex) rescore(query []float32, r int, v []float32) float32 {
	scale := x.rowScale(r)
	for i, b := range x.rowQ8(r) {
		v[i] = float32(b) * scale
	}
	return recall.Dot(query, v)
}

// segment is a run of rows [lo, hi) stored alike: q8 and scales start at
// row first, dead (nil for rows added since) is indexed from it too.
type segment struct {
	q8            []int8
	scales        []float32
	codes         []uint64 // nil when the index keeps no codes
	weights       []float32
	dead          []uint64
	first, lo, hi int
	dim           int
}

// segments cuts rows [lo, hi) at the end of the base.
func (x *vectorIndex) segments(lo, hi int) []segment {
	nb := x.baseLen()
	var out []segment
	if lo < min(hi, nb) {
		out = append(out, segment{q8: x.base.q8, scales: x.base.scales, codes: x.bcodes, weights: x.bweights,
			dead: x.dead, lo: lo, hi: min(hi, nb), dim: x.dim})
	}
	if max(lo, nb) < hi {
		out = append(out, segment{q8: x.q8, scales: x.scales, codes: x.codes, weights: x.weights,
			first: nb, lo: max(lo, nb), hi: hi, dim: x.dim})
	}
	return out
}

// push offers row r with score s to a heap of at most keep rows.
func push(h *minHeap, keep, r int, s float32) {
	if len(*h) < keep {
		// heap.Push, without boxing the row in an interface (an
		// allocation for each of the first keep rows of every scan).
		*h = append(*h, scored{r, s})
		h.up(len(*h) - 1)
	} else if s > (*h)[0].score {
		(*h)[0] = scored{r, s}
		heap.Fix(h, 0)
	}
}

func (sg *segment) isDead(i int) bool { return sg.dead != nil && sg.dead[i/64]&(1<<(i%64)) != 0 }

// scanBlock is how many rows one kernel call scores: enough that the
// call's cost vanishes, few enough that the scores stay on the stack.
const scanBlock = 256

// scan scores the segment's rows against a dense query, a block of rows
// per kernel call (dead rows are scored with the others and skipped).
func (sg *segment) scan(h *minHeap, query []float32, keep int) {
	dim := sg.dim
	query = query[:dim]
	var dots [scanBlock]float32
	for lo := sg.lo; lo < sg.hi; lo += scanBlock {
		n := min(scanBlock, sg.hi-lo)
		i0 := lo - sg.first
		vecmath.DotI8Rows(query, sg.q8[i0*dim:(i0+n)*dim], dots[:n])
		for k, d := range dots[:n] {
			i := i0 + k
			s := d * sg.scales[i]
			if len(*h) == keep && s <= (*h)[0].score || sg.isDead(i) {
				continue
			}
			push(h, keep, lo+k, s)
		}
	}
}

// scanSparse scores the segment's rows against a query given by its
// non-zero components: indexes nz and values qv.
func (sg *segment) scanSparse(h *minHeap, nz []int32, qv []float32, keep int) {
	dim := sg.dim
	qv = qv[:len(nz)]
	for r := sg.lo; r < sg.hi; r++ {
		i := r - sg.first
		if sg.isDead(i) {
			continue
		}
		row := sg.q8[i*dim : (i+1)*dim : (i+1)*dim]
		var s float32
		for k, j := range nz {
			s += qv[k] * float32(row[j])
		}
		push(h, keep, r, s*sg.scales[i])
	}
}
