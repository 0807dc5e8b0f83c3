//go:build linux

package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/recall-mem/recall/internal/synth"
)

// ownBM25Env names a copy of a kept benchmark store's recall.db:
// TestOwnBM25Figures then scores the benchmark's questions with FTS5's
// BM25 computed in Go from an fts5vocab 'instance' table and the rows'
// lengths (memories_fts_docsize), compares the top 100 with bm25()'s,
// ids and score bits, and logs the CPU of both. It measures whether
// scoring outside FTS5 (the driver cannot register auxiliary functions)
// could replace bm25(), whose per-row length lookup is a statement of
// its own. RECALL_OWN_BM25_QUERIES sets the questions (200),
// RECALL_OWN_BM25_RUNS the runs of each (5, the median kept);
// RECALL_OWN_BM25_GOLOG=1 takes the IDFs' log from Go's math.Log instead
// of SQLite's ln() (C's log, which bm25() calls): they differ in the last
// bit for some arguments.
const ownBM25Env = "RECALL_OWN_BM25_STORE"

// ownScorer scores FTS5 expressions of ORed single-token phrases as
// bm25(memories_fts, bm25Weights) does, from data FTS5 shows without
// auxiliary functions.
type ownScorer struct {
	conn   *sql.Conn // the store, with the temp vocab table
	tok    *sql.Conn // an in-memory FTS5 table with the store's tokenizer
	stems  map[string][]string
	lens   []int32 // each rowid's tokens over all columns, when cached
	sqlLog bool    // take IDF's log from SQLite's ln() (C's log) rather than Go's
}

func newOwnScorer(t *testing.T, ctx context.Context, path string) *ownScorer {
	t.Helper()
	open := func(name string) *sql.Conn {
		db, err := sql.Open("sqlite", name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	o := &ownScorer{conn: open(fileURI(path) + "?mode=ro"), tok: open(":memory:"), stems: map[string][]string{}}
	for _, c := range []struct {
		conn *sql.Conn
		stmt string
	}{
		{o.conn, `CREATE VIRTUAL TABLE temp.inst USING fts5vocab(main, memories_fts, instance)`},
		{o.conn, `CREATE VIRTUAL TABLE temp.vrow USING fts5vocab(main, memories_fts, row)`},
		{o.tok, `CREATE VIRTUAL TABLE tok USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')`},
		{o.tok, `CREATE VIRTUAL TABLE tokv USING fts5vocab(tok, instance)`},
	} {
		if _, err := c.conn.ExecContext(ctx, c.stmt); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// tokens are the index terms a query word stands for (FTS5 tokenizes a
// quoted string as the documents were).
func (o *ownScorer) tokens(ctx context.Context, word string) ([]string, error) {
	if s, ok := o.stems[word]; ok {
		return s, nil
	}
	if _, err := o.tok.ExecContext(ctx, `DELETE FROM tok`); err != nil {
		return nil, err
	}
	if _, err := o.tok.ExecContext(ctx, `INSERT INTO tok(rowid, x) VALUES (1, ?)`, word); err != nil {
		return nil, err
	}
	rows, err := o.tok.QueryContext(ctx, `SELECT term FROM tokv ORDER BY offset`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var s []string
	for rows.Next() {
		var term string
		if err := rows.Scan(&term); err != nil {
			return nil, err
		}
		s = append(s, term)
	}
	o.stems[word] = s
	return s, rows.Err()
}

// cacheLengths reads every row's length once.
func (o *ownScorer) cacheLengths(ctx context.Context) error {
	rows, err := o.conn.QueryContext(ctx, `SELECT id, sz FROM memories_fts_docsize`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var lens []int32
	for rows.Next() {
		var id int64
		var sz sql.RawBytes
		if err := rows.Scan(&id, &sz); err != nil {
			return err
		}
		for int64(len(lens)) <= id {
			lens = append(lens, -1)
		}
		lens[id] = int32(docTokens(sz))
	}
	o.lens = lens
	return rows.Err()
}

// docTokens sums the varints of a docsize record (one per column).
func docTokens(sz []byte) int64 {
	var d int64
	for len(sz) > 0 {
		v, n := sqliteVarint(sz)
		if n == 0 {
			break
		}
		d += int64(v)
		sz = sz[n:]
	}
	return d
}

// Where ownScorer.score takes the rows' lengths from.
const (
	lensCached = iota // cacheLengths' array
	lensRead          // one statement for all the rows scored
	lensJoined        // the instances' statements, joined with the lengths
)

// termHit is one row's weighted count of a term.
type termHit struct {
	doc int64
	f   float64
}

// score returns the window best rows (rowid ≥ from) of the ORed terms,
// by score then rowid, with bm25()'s score; ok is false when a term is
// not one token (a phrase of several: not prototyped). cached says to
// take the lengths from cacheLengths' array.
func (o *ownScorer) score(ctx context.Context, terms []string, from int64, window int, lensFrom int) (out []rankedRow, ok bool, err error) {
	cached, joined := lensFrom == lensCached, lensFrom == lensJoined
	var averages []byte
	if err := o.conn.QueryRowContext(ctx, `SELECT block FROM memories_fts_data WHERE id = 1`).Scan(&averages); err != nil {
		return nil, false, err
	}
	var nRow, nTok int64
	{
		b := averages
		v, n := sqliteVarint(b)
		nRow, b = int64(v), b[n:]
		for len(b) > 0 {
			v, n := sqliteVarint(b)
			if n == 0 {
				break
			}
			nTok, b = nTok+int64(v), b[n:]
		}
	}
	avgdl := float64(nTok) / float64(nRow)
	weights := [3]float64{10, 1, 4}
	lists := make([][]termHit, len(terms))
	var lens []int32
	idfs := make([]float64, len(terms))
	for i, w := range terms {
		toks, err := o.tokens(ctx, w)
		if err != nil {
			return nil, false, err
		}
		if len(toks) != 1 {
			return nil, false, nil
		}
		var hits int64
		if err := o.conn.QueryRowContext(ctx, `SELECT doc FROM temp.vrow WHERE term = ?`, toks[0]).Scan(&hits); err != nil && err != sql.ErrNoRows {
			return nil, false, err
		}
		// One column a row: the rowid and the column (title 0, content 1,
		// tags 2) packed, rows in rowid order.
		q := `SELECT doc*4 + CASE col WHEN 'title' THEN 0 WHEN 'content' THEN 1 ELSE 2 END FROM temp.inst WHERE term = ? AND doc >= ?`
		if joined {
			q = `SELECT doc*4 + CASE col WHEN 'title' THEN 0 WHEN 'content' THEN 1 ELSE 2 END, d.sz FROM temp.inst, memories_fts_docsize d WHERE term = ? AND doc >= ? AND d.id = doc`
			if lens == nil {
				lens = make([]int32, len(o.lens))
			}
		}
		rows, err := o.conn.QueryContext(ctx, q, toks[0], from)
		if err != nil {
			return nil, false, err
		}
		var list []termHit
		for rows.Next() {
			var v int64
			var sz sql.RawBytes
			dest := []any{&v}
			if joined {
				dest = append(dest, &sz)
			}
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				return nil, false, err
			}
			doc, wt := v>>2, weights[v&3]
			if joined {
				lens[doc] = int32(docTokens(sz))
			}
			if n := len(list); n > 0 && list[n-1].doc == doc {
				list[n-1].f += wt
			} else {
				list = append(list, termHit{doc, wt})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, false, err
		}
		lists[i] = list
		idfs[i] = idf(nRow, int(hits))
		if o.sqlLog {
			x := (float64(nRow-hits) + 0.5) / (float64(hits) + 0.5)
			if err := o.conn.QueryRowContext(ctx, `SELECT ln(?)`, x).Scan(&idfs[i]); err != nil {
				return nil, false, err
			}
			if idfs[i] <= 0 {
				idfs[i] = 1e-6
			}
		}
	}
	if cached {
		lens = o.lens
	} else if !joined {
		var ids []int64
		for _, l := range lists {
			for _, h := range l {
				ids = append(ids, h.doc)
			}
		}
		lens, err = o.readLengths(ctx, ids)
		if err != nil {
			return nil, false, err
		}
	}
	// Variables, not constants: C computes k1 + 1.0 and 1 - b in
	// doubles at run time, and so must this (a constant would be exact).
	k1, b := bm25K1, 0.75
	top := rankHeap{window: window}
	pos := make([]int, len(lists))
	for {
		// The next row of any list, in rowid order; its score sums the
		// phrases in the query's order (absent ones add +0.0: nothing).
		doc := int64(math.MaxInt64)
		for i, l := range lists {
			if pos[i] < len(l) && l[pos[i]].doc < doc {
				doc = l[pos[i]].doc
			}
		}
		if doc == math.MaxInt64 {
			break
		}
		d := float64(lens[doc])
		var sc float64
		for i, l := range lists {
			if pos[i] < len(l) && l[pos[i]].doc == doc {
				f := l[pos[i]].f
				sc += idfs[i] * ((f * (k1 + 1.0)) / (f + k1*(1-b+b*d/avgdl)))
				pos[i]++
			}
		}
		top.add(rankedRow{seq: doc, rank: -1.0 * sc})
	}
	return top.sorted(), true, nil
}

// rankHeap keeps the window best rows by (rank, seq): a max-heap on its
// worst row.
type rankHeap struct {
	window int
	rows   []rankedRow
}

func rankBefore(a, b rankedRow) bool { return a.rank < b.rank || a.rank == b.rank && a.seq < b.seq }

func (h *rankHeap) add(r rankedRow) {
	if len(h.rows) < h.window {
		h.rows = append(h.rows, r)
		for i := len(h.rows) - 1; i > 0; {
			p := (i - 1) / 2
			if !rankBefore(h.rows[p], h.rows[i]) {
				break
			}
			h.rows[p], h.rows[i] = h.rows[i], h.rows[p]
			i = p
		}
		return
	}
	if !rankBefore(r, h.rows[0]) {
		return
	}
	h.rows[0] = r
	for i := 0; ; {
		w, l, rt := i, 2*i+1, 2*i+2
		if l < len(h.rows) && rankBefore(h.rows[w], h.rows[l]) {
			w = l
		}
		if rt < len(h.rows) && rankBefore(h.rows[w], h.rows[rt]) {
			w = rt
		}
		if w == i {
			break
		}
		h.rows[w], h.rows[i] = h.rows[i], h.rows[w]
		i = w
	}
}

func (h *rankHeap) sorted() []rankedRow {
	slices.SortFunc(h.rows, func(a, b rankedRow) int {
		if rankBefore(a, b) {
			return -1
		}
		return 1
	})
	return h.rows
}

// readLengths reads the lengths of ids in one statement, into an array
// indexed by rowid.
func (o *ownScorer) readLengths(ctx context.Context, ids []int64) ([]int32, error) {
	var max int64
	for _, id := range ids {
		max = maxInt64(max, id)
	}
	lens := make([]int32, max+1)
	rows, err := o.conn.QueryContext(ctx, `SELECT id, sz FROM memories_fts_docsize WHERE id IN (SELECT value FROM json_each(?))`, jsonInts(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var sz sql.RawBytes
		if err := rows.Scan(&id, &sz); err != nil {
			return nil, err
		}
		lens[id] = int32(docTokens(sz))
	}
	return lens, rows.Err()
}

func maxInt64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

func TestOwnBM25Figures(t *testing.T) {
	path := os.Getenv(ownBM25Env)
	if path == "" {
		t.Skip(ownBM25Env + " names no kept benchmark store")
	}
	queries, err := strconv.Atoi(cmp.Or(os.Getenv("RECALL_OWN_BM25_QUERIES"), "200"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := strconv.Atoi(cmp.Or(os.Getenv("RECALL_OWN_BM25_RUNS"), "5"))
	if err != nil {
		t.Fatal(err)
	}
	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := NewMemoryService(db)
	ctx := context.Background()
	o := newOwnScorer(t, ctx, path)
	o.sqlLog = os.Getenv("RECALL_OWN_BM25_GOLOG") == ""
	c0 := time.Now()
	if err := o.cacheLengths(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("lengths cached in %v wall", time.Since(c0))
	corpus := synth.New(1, synth.DefaultVocab)
	const limit, window = 100, 133
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	median := func(f func() error) (time.Duration, error) {
		var cpu []time.Duration
		for range runs {
			c0 := threadCPU(t)
			if err := f(); err != nil {
				return 0, err
			}
			cpu = append(cpu, threadCPU(t)-c0)
		}
		slices.Sort(cpu)
		return cpu[len(cpu)/2], nil
	}
	var single, newest, multi ownBucket
	var skipped, differ, bitsDiffer int
	for q := range queries {
		text, _ := corpus.Query(q, 100000)
		m, err := s.matchExpr(ctx, text)
		if err != nil || m.expr == "" {
			t.Fatalf("%q: %+v %v", text, m, err)
		}
		terms := m.terms
		if terms == nil {
			t.Fatalf("%q: no counted terms (store too small?)", text)
		}
		want, err := s.rankExpr(ctx, m.expr, m.from, limit)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := o.score(ctx, terms, m.from, limit, lensCached)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			skipped++
			continue
		}
		got2, _, err := o.score(ctx, terms, m.from, limit, lensRead)
		if err != nil {
			t.Fatal(err)
		}
		got3, _, err := o.score(ctx, terms, m.from, limit, lensJoined)
		if err != nil {
			t.Fatal(err)
		}
		same := len(got) == len(want) && slices.Equal(got, got2) && slices.Equal(got, got3)
		for i := range min(len(got), len(want)) {
			if got[i].seq != want[i].seq {
				same = false
			} else if got[i].rank != want[i].rank {
				bitsDiffer++
				if bitsDiffer <= 5 {
					t.Logf("q%d row %d: %v against bm25() %v (%x)", q, i, got[i].rank, want[i].rank, math.Float64bits(got[i].rank)^math.Float64bits(want[i].rank))
				}
			}
		}
		if !same {
			differ++
			if differ <= 5 {
				t.Logf("q%d %q: top differs: got %v want %v", q, m.expr, got[:min(5, len(got))], want[:min(5, len(want))])
			}
		}
		cSearch, err := median(func() error {
			r := newRanking(m, window, limit)
			return s.score(ctx, r, limit)
		})
		if err != nil {
			t.Fatal(err)
		}
		cSingle, err := median(func() error { _, err := s.rankExpr(ctx, m.expr, m.from, limit); return err })
		if err != nil {
			t.Fatal(err)
		}
		cRead, err := median(func() error { _, _, err := o.score(ctx, terms, m.from, limit, lensRead); return err })
		if err != nil {
			t.Fatal(err)
		}
		cCached, err := median(func() error { _, _, err := o.score(ctx, terms, m.from, limit, lensCached); return err })
		if err != nil {
			t.Fatal(err)
		}
		cJoined, err := median(func() error { _, _, err := o.score(ctx, terms, m.from, limit, lensJoined); return err })
		if err != nil {
			t.Fatal(err)
		}
		b := &multi
		if len(terms) == 1 && m.from > 0 {
			b = &newest
		} else if len(terms) == 1 {
			b = &single
		}
		b.n++
		b.search += cSearch
		b.single += cSingle
		b.rd += cRead
		b.cach += cCached
		b.join += cJoined
	}
	t.Logf("%d questions: %d not one token a word (skipped), %d with other top-100 ids, %d rows with other score bits", queries, skipped, differ, bitsDiffer)
	for _, x := range []struct {
		name string
		b    ownBucket
	}{{"one word, all its rows", single}, {"one word, its newest rows", newest}, {"several words", multi}, {"all", sumBuckets(single, newest, multi)}} {
		if x.b.n == 0 {
			continue
		}
		per := func(d time.Duration) string {
			return fmt.Sprintf("%.3f", float64(d.Microseconds())/1000/float64(x.b.n))
		}
		t.Logf("%s (%d): CPU-ms a question: search's statements %s, single bm25() statement %s, own with lengths read %s, own with lengths cached %s, own with lengths joined %s",
			x.name, x.b.n, per(x.b.search), per(x.b.single), per(x.b.rd), per(x.b.cach), per(x.b.join))
	}
}

// ownBucket sums the CPU of questions of one kind.
type ownBucket struct {
	n                              int
	search, single, rd, cach, join time.Duration
}

func sumBuckets(bs ...ownBucket) ownBucket {
	var t ownBucket
	for _, b := range bs {
		t.n, t.search, t.single, t.rd, t.cach, t.join = t.n+b.n, t.search+b.search, t.single+b.single, t.rd+b.rd, t.cach+b.cach, t.join+b.join
	}
	return t
}
