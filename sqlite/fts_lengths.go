package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math"
	"sync"
)

// ownLengthsAfter is the fewest searches of one index version a process
// runs with bm25() before it reads every row's length, and
// rowsPerSearchSaved the rows whose reading costs what one search
// scored by the process saves, so that on any store the read waits for
// the searches that pay for it: at 100,000 rows ~18 CPU-ms to read (in
// chunks, TestLengthsReadFigures) and ~1.2 CPU-ms saved a search
// (median of the benchmark's questions), at 1,000,000 ~170 and ~3.4.
// (A row of the driver a rowid, the read before the chunks, cost twice
// that: 3,000 rows a search then.)
const (
	ownLengthsAfter    = 32
	rowsPerSearchSaved = 6000
)

// lengthsChunk is the most rowids' lengths one search reads. The read
// grows with the rows (at a million ~170 CPU-ms, 434 as a row of the
// driver a rowid), and one search paying it all is a spike in a served
// store's tail; read a chunk a search, each pays ≤ ~25 CPU-ms (what the
// slowest searches cost), and the searches score with bm25() until the
// last chunk is read. Chunks no smaller than that keep the searches that
// pay few, so they stay out of the p95: one at 100,000 rows, eight at a
// million (chunks of 32,768 slowed four searches by ~5 ms each at
// 100,000, enough to lift the hybrid p95 by about 1 ms).
const lengthsChunk = 1 << 17

// lengthsAfter is the search of m's version that reads the first chunk
// of the lengths: as many searches before the one that held them all
// when they were read in one, as there are chunks, so that they are
// held at the same search.
func (l *ftsLengths) lengthsAfter(m ftsMatch) int {
	if l.after != 0 {
		return l.after
	}
	all := max(ownLengthsAfter, int(m.rows/rowsPerSearchSaved))
	return max(1, all-int(m.rows/lengthsChunk))
}

// ftsLengths are every row's length (tokens over all columns, by rowid)
// at one index version, once a process has searched it lengthsAfter
// times.
type ftsLengths struct {
	mu      sync.Mutex
	version []byte  // the structure and averages records of lens
	lens    []int32 // -1: no such row
	// searches counts the searches of the last few versions, each its
	// own: a search still running on an older version (begun before a
	// write) must not restart the newer one's count.
	searches map[string]int
	never    []byte // a version whose rows cannot be held (readLengths)
	reading  bool
	reads    int // chunks of lengths read (tests count them)
	after    int // lengthsAfter's searches; tests set it (< 0: never score oneself)
	chunk    int // rowids a read; 0: lengthsChunk (tests set it)
	// part is the lengths read so far, of rowids below next, at version
	// partVersion (each chunk confirmed at it by the search that read it).
	part        []int32
	partVersion []byte
	next        int64
	// store is whether the store's full-text table is tokenized as the
	// query words are (storeTokenized): 0 unknown, 1 yes, -1 no.
	store int

	words    heldWords // see ownRankNewest
	wordRows int       // tests: wordReadAfter's rows a search (0: wordRowsPerSearchSaved)
	afterAsk func()    // tests: called as a search has asked for a word (heldWord)
}

// maxCountedVersions bounds the versions whose searches are counted;
// past it the counts start over.
const maxCountedVersions = 4

// indexVersion is the key of an index version: its structure and
// averages records (see indexUnchanged).
func indexVersion(m ftsMatch) []byte {
	return fmt.Appendf(nil, "%d:%s%s", len(m.index), m.index, m.averages)
}

// rowLengths returns every row's length at m's index version, or nil
// while the process has not searched that version often enough (it then
// counts this search, and reads them when it is the one that reaches
// the count). A failed read is not the search's error: bm25(), which
// scores instead, reads the same store and reports its errors.
func (s *MemoryService) rowLengths(ctx context.Context, m ftsMatch) []int32 {
	l := &s.db.lengths
	v := indexVersion(m)
	l.mu.Lock()
	if l.after < 0 || bytes.Equal(l.never, v) {
		l.mu.Unlock()
		return nil
	}
	if bytes.Equal(l.version, v) {
		lens := l.lens
		l.mu.Unlock()
		return lens
	}
	key := string(v)
	if _, ok := l.searches[key]; !ok && len(l.searches) >= maxCountedVersions || l.searches == nil {
		l.searches = map[string]int{}
	}
	l.searches[key]++
	read := l.searches[key] >= l.lengthsAfter(m) && !l.reading
	var part []int32
	var from int64
	if read {
		l.reading = true
		l.reads++
		// The chunks read at v so far go on; another version's are
		// dropped only once this chunk confirms v is the index's.
		if bytes.Equal(l.partVersion, v) {
			part, from = l.part, l.next
		}
	}
	chunk := l.chunk
	if chunk <= 0 {
		chunk = lengthsChunk
	}
	l.mu.Unlock()
	if !read {
		return nil
	}
	defer func() {
		// Deferred so that a panic in the read (recovered by the servers)
		// cannot leave the lengths never read again.
		l.mu.Lock()
		l.reading = false
		l.mu.Unlock()
	}()
	lens, next, never, err := s.readLengths(ctx, m, part, from, chunk)
	l.mu.Lock()
	defer l.mu.Unlock()
	if never {
		// Read again at each later search, they would be thrown away
		// again: the version is bm25()'s.
		l.never = v
		l.part, l.partVersion = nil, nil
		delete(l.searches, key)
	}
	if err != nil || lens == nil {
		return nil
	}
	if next >= 0 { // more rows to read: the next search of v reads on
		l.part, l.partVersion, l.next = lens, v, next
		return nil
	}
	l.version, l.lens = v, lens
	l.part, l.partVersion = nil, nil
	delete(l.searches, key)
	return lens
}

// lengthsQuery reads the rows from the rowid ?1 below ?2, each rowid ×
// 32 + its length record's bytes (31: more), and their records one
// after another, each as one value; and the largest rowid (a variable:
// a test makes it fail). A row of the driver a rowid cost twice the
// values, parsed and checked (at a million rows: 372–392 CPU-ms against
// 161–171 in chunks, TestLengthsReadFigures).
var lengthsQuery = `SELECT group_concat(id * 32 + min(length(sz), 31), ','), group_concat(sz, ''),
	(SELECT max(id) FROM memories_fts_docsize) FROM memories_fts_docsize WHERE id >= ?1 AND id < ?2`

// readLengths reads the lengths of the rowids from from below from +
// chunk into lens (those of the rowids below from, read at m's
// version), and returns them with the rowid to read on from (next), or
// next < 0 when every row's is read. It returns nil when the index is
// no longer m's after the read (the read is then of another version),
// or when m's version has rows it cannot hold (never): a rowid past
// what an []int32 by rowid of its rows should hold, or records it
// cannot parse.
func (s *MemoryService) readLengths(ctx context.Context, m ftsMatch, lens []int32, from int64, chunk int) (_ []int32, next int64, never bool, err error) {
	to := from + int64(chunk)
	var ids, sizes sql.RawBytes
	var last sql.NullInt64
	rows, err := s.db.read.QueryContext(ctx, lengthsQuery, from, to)
	if err != nil {
		return nil, 0, false, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	if rows.Next() {
		if err := rows.Scan(&ids, &sizes, &last); err != nil {
			return nil, 0, false, fmt.Errorf("search: %w", err)
		}
	}
	// A rowid far past the row count (many rows deleted, or set by
	// hand) would cost an array of every rowid below it: given up
	// before it is allocated, past 16 MiB of lengths (4 Mi rows) or four
	// times the rows, whichever is more.
	maxID := min(max(4*m.rows+1024, 1<<22), math.MaxInt32)
	if lens == nil {
		lens = make([]int32, 0, m.rows+1)
	}
	lens, held := parseLengths(lens, ids, sizes, from, min(to, maxID+1))
	// Closed before its error is asked: Err with a RawBytes scan still
	// held can deadlock against the context's cancellation
	// (golang/go#64498), leaving the search and its reader stuck.
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, false, fmt.Errorf("search: %w", err)
	}
	same, err := s.indexUnchanged(ctx, m)
	if err != nil || !same {
		return nil, 0, false, err
	}
	if !held || last.Int64 > maxID {
		return nil, 0, true, nil
	}
	if !last.Valid || last.Int64 < to {
		return lens, -1, false, nil
	}
	return lens, to, false, nil
}

// parseLengths adds to lens the lengths of the rows in ids (by rowid,
// comma-separated, each rowid × 32 + its record's bytes, the rowid from
// from and below to) from their records in sizes (one after another),
// or returns false when they are not so.
func parseLengths(lens []int32, ids, sizes []byte, from, to int64) ([]int32, bool) {
	prev := from - 1
	for len(ids) > 0 {
		v, rest, ok := commaInt(ids)
		id, n := v>>5, int(v&31)
		if !ok || id <= prev || id >= to || n > len(sizes) {
			return nil, false
		}
		ids, prev = rest, id
		d, ok := docTokens(sizes[:n])
		if !ok {
			return nil, false
		}
		sizes = sizes[n:]
		for int64(len(lens)) <= id {
			lens = append(lens, -1)
		}
		lens[id] = d
	}
	return lens, len(sizes) == 0
}

// docTokens sums the varints of a docsize record, one per column: the
// row's tokens, as FTS5's xColumnSize(-1) gives them. A record of
// another number of varints is one FTS5 calls corrupt: not parsed, so
// that bm25() scores and reports it.
func docTokens(sz []byte) (int32, bool) {
	var d uint64
	cols := 0
	for len(sz) > 0 {
		v, n := sqliteVarint(sz)
		if n == 0 {
			return 0, false
		}
		d, sz, cols = d+v, sz[n:], cols+1
	}
	return int32(d), cols == len(columnWeights) && d <= math.MaxInt32
}
