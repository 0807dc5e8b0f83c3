package sqlite

import (
	"container/heap"
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/recall-mem/recall"
)

// vectorIndex is an exact in-memory index: every vector of one model in
// one contiguous []float32, scanned with dot products (the vectors are
// unit length, so the dot product is the cosine) in parallel over cores.
// An exact scan beats approximate indexes on recall and is fast enough up
// to a few hundred thousand passages.
type vectorIndex struct {
	model string
	dim   int

	data   []float32 // len(seqs) × dim
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
		x.data, x.seqs, x.ids, x.chunks, x.spans = nil, nil, nil, nil, nil
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
		x.seqs[i], x.ids[i], x.chunks[i], x.spans[i] = x.seqs[last], x.ids[last], x.chunks[last], x.spans[last]
		x.slot[x.seqs[i]] = i
	}
	delete(x.slot, seq)
	x.data = x.data[:last*x.dim]
	x.seqs, x.ids, x.chunks, x.spans = x.seqs[:last], x.ids[:last], x.chunks[:last], x.spans[:last]
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
		n := len(x.data)
		x.data = append(x.data, make([]float32, x.dim)...)
		decodeVector(x.data[n:], blob)
		x.slot[seq] = len(x.seqs)
		x.seqs = append(x.seqs, seq)
		x.ids = append(x.ids, id)
		x.chunks = append(x.chunks, chunk)
		x.spans = append(x.spans, [2]int32{start, end})
	}
	return rows.Err()
}

// scored is a row and its similarity to the query.
type scored struct {
	row   int
	score float32
}

// minHeap keeps the best k rows seen, worst on top.
type minHeap []scored

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(v any)        { *h = append(*h, v.(scored)) }
func (h *minHeap) Pop() any          { old := *h; v := old[len(old)-1]; *h = old[:len(old)-1]; return v }

// minParallelRows is the index size below which one goroutine is faster.
const minParallelRows = 4096

// search returns the k memories with the passages most similar to query,
// one hit per memory. It keeps 4k passages (at least 32) per worker
// before grouping by memory, so a memory with many near passages cannot
// hide the others.
func (x *vectorIndex) search(query []float32, k int) []recall.VectorHit {
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := x.len()
	keep := max(4*k, 32)
	workers := runtime.GOMAXPROCS(0)
	if n < minParallelRows {
		workers = 1
	}
	parts := make([]minHeap, workers)
	var wg sync.WaitGroup
	per := (n + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, n)
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			parts[w] = x.scan(query, lo, hi, keep)
		}(w, lo, hi)
	}
	wg.Wait()
	var all []scored
	for _, p := range parts {
		all = append(all, p...)
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

// scan scores rows [lo, hi) and keeps the best keep.
func (x *vectorIndex) scan(query []float32, lo, hi, keep int) minHeap {
	h := make(minHeap, 0, keep+1)
	dim := x.dim
	for r := lo; r < hi; r++ {
		s := dot(query, x.data[r*dim:(r+1)*dim])
		if len(h) < keep {
			heap.Push(&h, scored{r, s})
		} else if s > h[0].score {
			h[0] = scored{r, s}
			heap.Fix(&h, 0)
		}
	}
	return h
}

// dot is the inner product, unrolled by four with separate accumulators.
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
