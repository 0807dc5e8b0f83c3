//go:build linux

package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
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
		lens[id], _ = docTokens(sz)
	}
	o.lens = lens
	return rows.Err()
}

// Where ownScorer.score takes the rows' lengths from.
const (
	lensCached = iota // cacheLengths' array
	lensRead          // one statement for all the rows scored
	lensJoined        // the instances' statements, joined with the lengths
)

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
	nRow, nTok, ok := ftsTotals(averages)
	if !ok {
		return nil, false, fmt.Errorf("averages record %x", averages)
	}
	avgdl := float64(nTok) / float64(nRow)
	lists := make([][]termRows, len(terms))
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
		var list []termRows
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
			doc, wt := v>>2, columnWeights[v&3]
			if joined {
				lens[doc], _ = docTokens(sz)
			}
			if n := len(list); n > 0 && list[n-1].doc == doc {
				list[n-1].f += wt
			} else {
				list = append(list, termRows{doc, wt})
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
	rows, ok := scoreLists(lists, idfs, lens, avgdl, window)
	return rows, ok, nil
}

// readLengths reads the lengths of ids in one statement, into an array
// indexed by rowid.
func (o *ownScorer) readLengths(ctx context.Context, ids []int64) ([]int32, error) {
	var last int64
	for _, id := range ids {
		last = max(last, id)
	}
	lens := make([]int32, last+1)
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
		lens[id], _ = docTokens(sz)
	}
	return lens, rows.Err()
}

func TestOwnBM25Figures(t *testing.T) {
	s, path, queries := openKeptStore(t, ownBM25Env, "RECALL_OWN_BM25_QUERIES", 200)
	runs := envCount(t, "RECALL_OWN_BM25_RUNS", 5)
	ctx := context.Background()
	o := newOwnScorer(t, ctx, path)
	o.sqlLog = os.Getenv("RECALL_OWN_BM25_GOLOG") == ""
	// The statements run on this goroutine (the driver is Go): its
	// thread's CPU time is theirs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w0, c0 := time.Now(), threadCPU(t)
	if err := o.cacheLengths(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d lengths cached in %v wall, %v CPU", len(o.lens), time.Since(w0), threadCPU(t)-c0)
	corpus := synth.New(1, synth.DefaultVocab)
	const limit, window = 100, 133
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
	var skipped, differ, bitsDiffer, nowDiffer int
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
		// The search's statements with bm25() (as on main), then as the
		// search scores now, with the lengths held (ownRank, for the
		// questions that score all their rows; bm25() for the others).
		s.db.lengths.after = -1
		cSearch, err := median(func() error {
			r := newRanking(m, window, limit)
			return s.score(ctx, r, limit)
		})
		if err != nil {
			t.Fatal(err)
		}
		s.db.lengths.after = 1
		var now []rankedRow
		cNow, err := median(func() error {
			r := newRanking(m, window, limit)
			err := s.score(ctx, r, limit)
			now = r.rows[:min(limit, len(r.rows))]
			return err
		})
		if !slices.Equal(now, want) {
			nowDiffer++
		}
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
		b.now += cNow
		b.join += cJoined
	}
	t.Logf("%d questions: %d not one token a word (skipped), %d with other top-100 ids, %d rows with other score bits; the search now: %d with other top-100 rows or bits", queries, skipped, differ, bitsDiffer, nowDiffer)
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
		t.Logf("%s (%d): CPU-ms a question: search's statements %s, single bm25() statement %s, own with lengths read %s, own with lengths cached %s, own with lengths joined %s; the search now %s",
			x.name, x.b.n, per(x.b.search), per(x.b.single), per(x.b.rd), per(x.b.cach), per(x.b.join), per(x.b.now))
	}
}

// ownBucket sums the CPU of questions of one kind.
type ownBucket struct {
	n                                   int
	search, single, rd, cach, join, now time.Duration
}

func sumBuckets(bs ...ownBucket) ownBucket {
	var t ownBucket
	for _, b := range bs {
		t.n, t.search, t.single, t.rd, t.cach, t.join, t.now = t.n+b.n, t.search+b.search, t.single+b.single, t.rd+b.rd, t.cach+b.cach, t.join+b.join, t.now+b.now
	}
	return t
}
