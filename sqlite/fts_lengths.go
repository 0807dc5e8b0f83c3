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
// scored by the process saves (at 100,000 rows: ~42 CPU-ms to read,
// ~1.2 CPU-ms saved a search, median of the benchmark's questions), so
// that on any store the read waits for the searches that pay for it.
const (
	ownLengthsAfter    = 32
	rowsPerSearchSaved = 3000
)

// lengthsAfter is how many searches of m's version read the lengths.
func (l *ftsLengths) lengthsAfter(m ftsMatch) int {
	if l.after != 0 {
		return l.after
	}
	return max(ownLengthsAfter, int(m.rows/rowsPerSearchSaved))
}

// ftsLengths are every row's length (tokens over all columns, by rowid)
// at one index version, once a process has searched it lengthsAfter
// times.
type ftsLengths struct {
	mu       sync.Mutex
	version  []byte  // the structure and averages records of lens
	lens     []int32 // -1: no such row
	seen     []byte  // the version searches were last counted at
	searches int
	reading  bool
	after    int // lengthsAfter's searches; tests set it (< 0: never score oneself)

	words heldWords // see ownRankNewest
}

// indexVersion is the key of an index version: its structure and
// averages records (see indexUnchanged).
func indexVersion(m ftsMatch) []byte {
	return fmt.Appendf(nil, "%d:%s%s", len(m.index), m.index, m.averages)
}

// rowLengths returns every row's length at m's index version, or nil
// while the process has not searched that version often enough (it then
// counts this search, and reads them when it is the one that reaches
// the count).
func (s *MemoryService) rowLengths(ctx context.Context, m ftsMatch) ([]int32, error) {
	l := &s.db.lengths
	v := indexVersion(m)
	l.mu.Lock()
	if l.after < 0 {
		l.mu.Unlock()
		return nil, nil
	}
	if bytes.Equal(l.version, v) {
		lens := l.lens
		l.mu.Unlock()
		return lens, nil
	}
	if !bytes.Equal(l.seen, v) {
		l.seen, l.searches = v, 0
	}
	l.searches++
	read := l.searches >= l.lengthsAfter(m) && !l.reading
	if read {
		l.reading = true
	}
	l.mu.Unlock()
	if !read {
		return nil, nil
	}
	lens, err := s.readLengths(ctx, m)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reading = false
	if err != nil || lens == nil {
		return nil, err
	}
	l.version, l.lens = v, lens
	return lens, nil
}

// readLengths reads every row's length, or nil when the index is no
// longer m's after the read (the read is then of another version).
func (s *MemoryService) readLengths(ctx context.Context, m ftsMatch) ([]int32, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT id, sz FROM memories_fts_docsize`)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	lens := make([]int32, 0, m.rows+1)
	for rows.Next() {
		var id int64
		var sz sql.RawBytes
		if err := rows.Scan(&id, &sz); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		if id < 0 || id > math.MaxInt32 {
			return nil, nil // rowids this array cannot hold: bm25() scores
		}
		for int64(len(lens)) <= id {
			lens = append(lens, -1)
		}
		d, ok := docTokens(sz)
		if !ok {
			return nil, nil
		}
		lens[id] = d
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	rows.Close()
	if same, err := s.indexUnchanged(ctx, m); err != nil || !same {
		return nil, err
	}
	return lens, nil
}

// docTokens sums the varints of a docsize record (one per column): the
// row's tokens, as FTS5's xColumnSize(-1) gives them.
func docTokens(sz []byte) (int32, bool) {
	var d uint64
	for len(sz) > 0 {
		v, n := sqliteVarint(sz)
		if n == 0 {
			return 0, false
		}
		d, sz = d+v, sz[n:]
	}
	return int32(d), d <= math.MaxInt32
}
