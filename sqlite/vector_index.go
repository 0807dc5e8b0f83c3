package sqlite

import (
	"container/heap"
	"context"
	"database/sql"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"

	"github.com/recall-mem/recall"
)

// vectorIndex is an in-memory index of every vector of one model, scanned
// in full for each query: no approximate structure, so nothing is missed
// for being in the wrong cell.
//
// Rows are held twice, in contiguous slices: float32 for exact scores, and
// int8 with one scale per row for sparse queries (the built-in embedder's
// short queries touch a few dozen of its dimensions). A sparse scan reads
// those few int8 values per row, a quarter of the cache lines of float32,
// and is several times faster; its best candidates are then re-scored
// exactly in float32. A dense query (a neural model's) is scored in
// float32 directly.
type vectorIndex struct {
	model string
	dim   int

	data   []float32 // len(seqs) × dim
	q8     []int8    // the same rows quantised
	scales []float32 // per row: the float value of an int8 step
	seqs   []int64   // memory_vectors.seq of each row
	ids    []string
	chunks []int32
	spans  [][2]int32
	slot   map[int64]int // seq → row

	maxSeq, maxTomb int64 // what the index has seen
	loaded          bool

	mu sync.RWMutex // guards the fields above against concurrent scans
}

func newVectorIndex(model string, dim int) *vectorIndex {
	return &vectorIndex{model: model, dim: dim, slot: map[int64]int{}}
}

func (x *vectorIndex) len() int { return len(x.seqs) }

// refresh applies the changes since the last refresh, read in one snapshot
// q: tombstones remove rows, rows with a larger seq are added. When the
// tombstones it needs were pruned, it reloads everything.
func (x *vectorIndex) refresh(ctx context.Context, q *sql.Tx) error {
	var maxSeq, maxTomb, minTomb int64
	err := q.QueryRowContext(ctx, `SELECT
		COALESCE((SELECT MAX(seq) FROM memory_vectors), 0),
		COALESCE((SELECT MAX(id) FROM vector_tombstones), 0),
		COALESCE((SELECT MIN(id) FROM vector_tombstones), 0)`).Scan(&maxSeq, &maxTomb, &minTomb)
	if err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.loaded && maxSeq == x.maxSeq && maxTomb == x.maxTomb {
		return nil
	}
	if x.loaded && minTomb > x.maxTomb+1 {
		x.data, x.q8, x.scales, x.seqs, x.ids, x.chunks, x.spans = nil, nil, nil, nil, nil, nil, nil
		x.slot, x.maxSeq, x.maxTomb, x.loaded = map[int64]int{}, 0, 0, false
	}
	if x.loaded && maxTomb > x.maxTomb {
		if err := x.applyTombstones(ctx, q); err != nil {
			return err
		}
	}
	if err := x.load(ctx, q); err != nil {
		return err
	}
	x.maxSeq, x.maxTomb, x.loaded = maxSeq, maxTomb, true
	return nil
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

// remove drops the row of seq by moving the last row into its place.
func (x *vectorIndex) remove(seq int64) {
	i, ok := x.slot[seq]
	if !ok {
		return
	}
	last := len(x.seqs) - 1
	if i != last {
		copy(x.data[i*x.dim:(i+1)*x.dim], x.data[last*x.dim:])
		copy(x.q8[i*x.dim:(i+1)*x.dim], x.q8[last*x.dim:])
		x.scales[i], x.seqs[i], x.ids[i] = x.scales[last], x.seqs[last], x.ids[last]
		x.chunks[i], x.spans[i] = x.chunks[last], x.spans[last]
		x.slot[x.seqs[i]] = i
	}
	delete(x.slot, seq)
	x.data, x.q8 = x.data[:last*x.dim], x.q8[:last*x.dim]
	x.scales, x.seqs, x.ids = x.scales[:last], x.seqs[:last], x.ids[:last]
	x.chunks, x.spans = x.chunks[:last], x.spans[:last]
}

// load appends the rows of this model with seq beyond what was seen.
func (x *vectorIndex) load(ctx context.Context, q *sql.Tx) error {
	rows, err := q.QueryContext(ctx, `SELECT seq, memory_id, chunk, span_start, span_end, vec FROM memory_vectors
		WHERE seq > ? AND model = ? AND dim = ? ORDER BY seq`, x.maxSeq, x.model, x.dim)
	if err != nil {
		return err
	}
	defer rows.Close()
	var blob []byte
	v := make([]float32, x.dim)
	for rows.Next() {
		var seq int64
		var id string
		var chunk, start, end int32
		if err := rows.Scan(&seq, &id, &chunk, &start, &end, &blob); err != nil {
			return err
		}
		if len(blob) != x.dim*4 {
			return fmt.Errorf("vector %d has %d bytes, want %d", seq, len(blob), x.dim*4)
		}
		decodeVector(v, blob)
		x.add(seq, id, v)
		x.chunks = append(x.chunks, chunk)
		x.spans = append(x.spans, [2]int32{start, end})
	}
	return rows.Err()
}

// add appends v and its int8 quantisation (symmetric, one scale per row);
// the caller appends the chunk and span.
func (x *vectorIndex) add(seq int64, id string, v []float32) {
	x.data = append(x.data, v...)
	var peak float32
	for _, f := range v {
		peak = max(peak, float32(math.Abs(float64(f))))
	}
	scale := peak / 127
	n := len(x.q8)
	x.q8 = append(x.q8, make([]int8, x.dim)...)
	if scale > 0 {
		row := x.q8[n:]
		for j, f := range v {
			row[j] = int8(math.Round(float64(f / scale)))
		}
	}
	x.slot[seq] = len(x.seqs)
	x.scales = append(x.scales, scale)
	x.seqs = append(x.seqs, seq)
	x.ids = append(x.ids, id)
}

// scored is a row and its similarity to the query.
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

// minParallelRows is the index size below which one goroutine is faster.
const minParallelRows = 4096

// search returns the k memories with the passages most similar to query,
// one hit (its best passage) per memory, best first. The scan keeps
// max(6k, 64) passages per core before grouping by memory, so that a
// memory with many near passages cannot hide the others.
func (x *vectorIndex) search(query []float32, k int) []recall.VectorHit {
	x.mu.RLock()
	defer x.mu.RUnlock()
	keep := max(6*k, 64)
	n := x.len()
	workers := runtime.GOMAXPROCS(0)
	if n < minParallelRows {
		workers = 1
	}
	var nz []int32
	var qv []float32
	for j, v := range query {
		if v != 0 {
			nz, qv = append(nz, int32(j)), append(qv, v)
		}
	}
	sparse := len(nz)*3 < len(query)
	parts := make([]minHeap, workers)
	var wg sync.WaitGroup
	per := (n + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, n)
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			if sparse {
				parts[w] = x.scanSparse(nz, qv, lo, hi, keep)
			} else {
				parts[w] = x.scan(query, lo, hi, keep)
			}
		}(w, lo, hi)
	}
	wg.Wait()
	var all []scored
	for _, p := range parts {
		for _, s := range p {
			if sparse { // re-score the quantised candidates exactly
				s.score = dot(query, x.data[s.row*x.dim:(s.row+1)*x.dim])
			}
			all = append(all, s)
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score > all[j].score
		}
		return x.seqs[all[i].row] < x.seqs[all[j].row]
	})
	seen := map[string]bool{}
	var out []recall.VectorHit
	for _, s := range all {
		id := x.ids[s.row]
		if seen[id] {
			continue
		}
		seen[id] = true
		sp := x.spans[s.row]
		out = append(out, recall.VectorHit{MemoryID: id, Chunk: int(x.chunks[s.row]), Score: float64(s.score), Start: int(sp[0]), End: int(sp[1])})
		if len(out) == k {
			break
		}
	}
	return out
}

// push offers row r with score s to a heap of at most keep rows.
func push(h *minHeap, keep, r int, s float32) {
	if len(*h) < keep {
		heap.Push(h, scored{r, s})
	} else if s > (*h)[0].score {
		(*h)[0] = scored{r, s}
		heap.Fix(h, 0)
	}
}

// scan scores rows [lo, hi) exactly against a dense query.
func (x *vectorIndex) scan(query []float32, lo, hi, keep int) minHeap {
	h := make(minHeap, 0, keep+1)
	dim := x.dim
	for r := lo; r < hi; r++ {
		push(&h, keep, r, dot(query, x.data[r*dim:(r+1)*dim]))
	}
	return h
}

// scanSparse scores rows [lo, hi) against a query given by its non-zero
// components: indexes nz and values qv.
func (x *vectorIndex) scanSparse(nz []int32, qv []float32, lo, hi, keep int) minHeap {
	h := make(minHeap, 0, keep+1)
	dim := x.dim
	qv = qv[:len(nz)]
	for r := lo; r < hi; r++ {
		row := x.q8[r*dim : (r+1)*dim : (r+1)*dim]
		var s float32
		for i, j := range nz {
			s += qv[i] * float32(row[j])
		}
		push(&h, keep, r, s*x.scales[r])
	}
	return h
}

// dot is the exact inner product, unrolled by four.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
