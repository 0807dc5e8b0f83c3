package sqlite

import (
	"bytes"
	"strconv"
	"sync"
)

// termCounts remembers, between searches, what matchExpr asks the
// full-text index to plan a query: how many rows a term matches (counted
// up to a limit) and where the newest rows of an expression start. A
// search at 100,000 memories spent about a millisecond of CPU on these
// counts, repeated for every query that shares a word.
//
// They hold while the index is unchanged. FTS5 rewrites its structure
// record (the list of index segments, with a write counter) whenever a
// transaction changes the index, so a search reads that record with the
// row count in one statement and drops everything counted under another.
type termCounts struct {
	mu      sync.Mutex
	version []byte // the structure record and row count they were counted under
	n       map[string]int
	from    map[string]int64
}

// maxTermCounts bounds the remembered entries; past it they start over.
const maxTermCounts = 10000

// at returns the counts valid for version, dropping the others.
func (c *termCounts) at(version []byte) *termView {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !bytes.Equal(c.version, version) || len(c.n)+len(c.from) > maxTermCounts {
		c.version = bytes.Clone(version)
		c.n, c.from = map[string]int{}, map[string]int64{}
	}
	return &termView{c: c, version: c.version}
}

// termView reads and adds counts of one index version; what it adds once
// the index has moved on is dropped.
type termView struct {
	c       *termCounts
	version []byte
}

func countKey(term string, limit int) string { return strconv.Itoa(limit) + "\x00" + term }

func (v *termView) count(term string, limit int) (int, bool) {
	v.c.mu.Lock()
	defer v.c.mu.Unlock()
	n, ok := v.c.n[countKey(term, limit)]
	return n, ok && bytes.Equal(v.c.version, v.version)
}

func (v *termView) setCount(term string, limit, n int) {
	v.c.mu.Lock()
	defer v.c.mu.Unlock()
	if bytes.Equal(v.c.version, v.version) {
		v.c.n[countKey(term, limit)] = n
	}
}

func (v *termView) start(expr string, budget int) (int64, bool) {
	v.c.mu.Lock()
	defer v.c.mu.Unlock()
	from, ok := v.c.from[countKey(expr, budget)]
	return from, ok && bytes.Equal(v.c.version, v.version)
}

func (v *termView) setStart(expr string, budget int, from int64) {
	v.c.mu.Lock()
	defer v.c.mu.Unlock()
	if bytes.Equal(v.c.version, v.version) {
		v.c.from[countKey(expr, budget)] = from
	}
}
