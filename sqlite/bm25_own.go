package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	sqlite3 "modernc.org/sqlite"
)

// FTS5's bm25() reads each scored row's length with a statement of its
// own (a third of a full-text search's CPU), and this driver cannot
// register a ranking function of ours in its place. A search that has
// every row's length in memory scores the rows itself instead, from what
// FTS5 shows through fts5vocab tables: each term's rows with the column
// of every instance, and each term's row count. The score is bm25()'s
// to the bit (sqlite's ext/fts5/fts5_aux.c): per phrase, in the query's
// order, score += IDF × (f × (k1 + 1)) / (f + k1 × (1 − b + b × D /
// avgdl)), with f the phrase's instances weighted by column, D the row's
// tokens over all columns, avgdl the averages record's tokens over its
// rows and IDF = log((N − hits + 0.5) / (hits + 0.5)), floored at 1e-6;
// the log is SQLite's ln() (C's log, as bm25()'s; Go's math.Log differs
// in the last bit for some arguments). A phrase a row lacks adds +0.0.
//
// The lengths are read once (100,000 rows: ~42 CPU-ms) and only when a
// process has searched one index version often enough (lengthsAfter), so that
// a process that searches once (a CLI search, a hook) never pays for
// them, and a store written between searches scores with bm25() as
// before. Scoring oneself pays where the rows scored are all the
// expression's rows: a search that scores only the newest rows of a
// common word (from > 0) keeps bm25(), since an fts5vocab table has no
// rowid bound and would read the word's every row.

// ftsTokenize is memories_fts's tokenizer (migration 0001): query words
// are turned into index terms with it.
const ftsTokenize = "porter unicode61 remove_diacritics 2"

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

// The fts5vocab tables a reader scores with, in its temp schema.
const (
	ftsInstances = "temp.memories_fts_instances" // term, doc, col, offset
	ftsTermRows  = "temp.memories_fts_terms"     // term, doc (rows), cnt
)

func init() { sqlite3.RegisterConnectionHook(addVocabTables) }

// addVocabTables declares the fts5vocab tables on every reader (a
// query_only connection) as it opens. query_only forbids writing the
// temp schema too, so it is lifted for the two declarations; they store
// nothing and name memories_fts only when read.
func addVocabTables(c sqlite3.ExecQuerierContext, _ string) (err error) {
	ctx := context.Background()
	// Only restoring query_only may fail the connection: without the
	// tables a reader still searches, with bm25() (ownRank).
	rows, err := c.QueryContext(ctx, `PRAGMA query_only`, nil)
	if err != nil {
		return nil
	}
	v := make([]driver.Value, 1)
	err = rows.Next(v)
	rows.Close()
	if on, _ := v[0].(int64); err != nil || on != 1 {
		return nil
	}
	if _, err := c.ExecContext(ctx, `PRAGMA query_only = 0`, nil); err != nil {
		return nil
	}
	defer func() {
		if _, e := c.ExecContext(ctx, `PRAGMA query_only = 1`, nil); err == nil {
			err = e
		}
	}()
	for _, q := range []string{
		`CREATE VIRTUAL TABLE IF NOT EXISTS ` + ftsInstances + ` USING fts5vocab(main, memories_fts, instance)`,
		`CREATE VIRTUAL TABLE IF NOT EXISTS ` + ftsTermRows + ` USING fts5vocab(main, memories_fts, row)`,
	} {
		if _, err := c.ExecContext(ctx, q, nil); err != nil {
			break
		}
	}
	return nil
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

// ftsTotals reads N and the tokens of all columns from the averages
// record; ok is false for a record that does not parse.
func ftsTotals(rec []byte) (n, tokens int64, ok bool) {
	v, size := sqliteVarint(rec)
	if size == 0 {
		return 0, 0, false
	}
	n, rec = int64(v), rec[size:]
	for len(rec) > 0 {
		v, size := sqliteVarint(rec)
		if size == 0 {
			return 0, 0, false
		}
		tokens, rec = tokens+int64(v), rec[size:]
	}
	return n, tokens, true
}

// termRows is one row's weighted count of a phrase (f).
type termRows struct {
	doc int64
	f   float64
}

// columnWeights are bm25Weights by column (title, content, tags).
var columnWeights = [3]float64{10, 1, 4}

// ownRank returns m's window best rows, by rank then rowid, with the
// ranks bm25() gives them, when it can score them itself (ok): the
// process holds every row's length at m's index version, m scores all
// its rows (no rowid floor) and each word is one index term. The index
// must be m's from the first statement to the last, as the lengths are.
func (s *MemoryService) ownRank(ctx context.Context, m ftsMatch, window int) (rows []rankedRow, ok bool, err error) {
	if len(m.terms) == 0 || m.index == nil || m.rows <= 0 || m.from != 0 && len(m.terms) != 1 {
		return nil, false, nil
	}
	n, tokens, ok := ftsTotals(m.averages)
	if !ok || n != m.rows || n <= 0 {
		return nil, false, nil
	}
	lens, err := s.rowLengths(ctx, m)
	if err != nil || lens == nil {
		return nil, false, err
	}
	terms := make([]string, len(m.terms))
	for i, w := range m.terms {
		t, err := indexTerms(ctx, w)
		if err != nil || len(t) != 1 {
			return nil, false, err
		}
		terms[i] = t[0]
	}
	// A failed statement (a reader without the vocab tables, say) leaves
	// the window to bm25(), which reports an error that is the store's.
	idfStmt, err := s.db.readStmt(ctx, `SELECT doc, ln((? - doc + 0.5) / (doc + 0.5)) FROM `+ftsTermRows+` WHERE term = ?`)
	if err != nil {
		return nil, false, nil
	}
	instStmt, err := s.db.readStmt(ctx, `SELECT group_concat(doc * 4 + CASE col WHEN 'title' THEN 0 WHEN 'content' THEN 1 ELSE 2 END, ',')
		FROM `+ftsInstances+` WHERE term = ?`)
	if err != nil {
		return nil, false, nil
	}
	avgdl := float64(tokens) / float64(n)
	if m.from != 0 {
		return s.ownRankNewest(ctx, m, terms[0], lens, avgdl, window, idfStmt, instStmt)
	}
	lists := make([][]termRows, len(terms))
	idfs := make([]float64, len(terms))
	for i, t := range terms {
		var found bool
		if idfs[i], found, err = termIDF(ctx, idfStmt, n, t); err != nil {
			return nil, false, nil
		}
		if !found {
			continue // no row has it: it adds nothing anywhere
		}
		if lists[i], err = termInstances(ctx, instStmt, t, len(lens), 0); err != nil || lists[i] == nil {
			return nil, false, nil
		}
	}
	rows, ok = scoreLists(lists, idfs, lens, avgdl, window)
	if !ok {
		return nil, false, nil
	}
	if same, err := s.indexUnchanged(ctx, m); err != nil || !same {
		return nil, false, err
	}
	return rows, true, nil
}

// termIDF is a term's IDF as bm25() computes it over n rows (found is
// false when no row has the term).
func termIDF(ctx context.Context, st *sql.Stmt, n int64, term string) (idf float64, found bool, err error) {
	var hits int64
	var v sql.NullFloat64
	switch err := st.QueryRowContext(ctx, n, term).Scan(&hits, &v); {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	if !v.Valid || v.Float64 <= 0 {
		return 1e-6, true, nil
	}
	return v.Float64, true, nil
}

// termInstances reads a term's rows from the rowid from on, each with
// its instances' weights summed; nil when a row is past the lengths
// (another version's) or the instances are not by rowid. The
// statement gives all the term's instances in one value (rowid × 4 +
// column, comma-separated): a row of the driver for each instance cost
// more than FTS5's scoring of it.
func termInstances(ctx context.Context, st *sql.Stmt, term string, known int, from int64) ([]termRows, error) {
	rows, err := st.QueryContext(ctx, term)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var text sql.RawBytes
	if rows.Next() {
		if err := rows.Scan(&text); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
	}
	// Parsed as it goes: a common word's value holds every instance
	// (about 100,000), and only the rows from from on are kept.
	list := []termRows{}
	last := int64(-1)
	for len(text) > 0 {
		var v int64
		i := 0
		for ; i < len(text) && text[i] != ','; i++ {
			if text[i] < '0' || text[i] > '9' || v > math.MaxInt64/10-9 {
				return nil, nil
			}
			v = v*10 + int64(text[i]-'0')
		}
		text = text[min(i+1, len(text)):]
		doc, w := v>>2, columnWeights[v&3]
		switch {
		case i == 0 || doc < last || doc >= int64(known):
			// Not by rowid (the table gives them so), or past the
			// lengths (another version's): bm25() scores.
			return nil, nil
		case doc < from:
		case doc == last && len(list) > 0:
			list[len(list)-1].f += w
		default:
			list = append(list, termRows{doc, w})
		}
		last = doc
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return list, nil
}

// scoreLists scores the rows of the phrases' lists (each in rowid order)
// and keeps the window best; ok is false when a row has no length.
func scoreLists(lists [][]termRows, idfs []float64, lens []int32, avgdl float64, window int) ([]rankedRow, bool) {
	// Variables, not constants: C computes k1 + 1.0 and 1 - b in
	// doubles, and so must this (constant arithmetic would be exact).
	k1, b := bm25K1, 0.75
	top := rankHeap{window: window}
	pos := make([]int, len(lists))
	for {
		doc := int64(math.MaxInt64)
		for i, l := range lists {
			if pos[i] < len(l) && l[pos[i]].doc < doc {
				doc = l[pos[i]].doc
			}
		}
		if doc == math.MaxInt64 {
			break
		}
		if lens[doc] < 0 {
			return nil, false
		}
		d := float64(lens[doc])
		var score float64
		for i, l := range lists {
			if pos[i] < len(l) && l[pos[i]].doc == doc {
				f := l[pos[i]].f
				score += idfs[i] * ((f * (k1 + 1.0)) / (f + k1*(1-b+b*d/avgdl)))
				pos[i]++
			}
		}
		top.add(rankedRow{seq: doc, rank: -1.0 * score})
	}
	return top.sorted(), true
}

// rankHeap keeps the window best rows by (rank, seq): a heap whose root
// is the worst kept.
type rankHeap struct {
	window int
	rows   []rankedRow
}

func rankBefore(a, b rankedRow) bool { return a.rank < b.rank || a.rank == b.rank && a.seq < b.seq }

func (h *rankHeap) add(r rankedRow) {
	if h.window <= 0 {
		return
	}
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
			return
		}
		h.rows[w], h.rows[i] = h.rows[i], h.rows[w]
		i = w
	}
}

// sorted returns the kept rows best first.
func (h *rankHeap) sorted() []rankedRow {
	slices.SortFunc(h.rows, func(a, b rankedRow) int {
		if rankBefore(a, b) {
			return -1
		}
		if rankBefore(b, a) {
			return 1
		}
		return 0
	})
	return h.rows
}

// tokenizer turns query words into memories_fts's index terms, through
// an FTS5 table of its own with the same tokenizer in memory (FTS5
// tokenizes a quoted query string as it tokenized the documents), and
// remembers them: a word's terms never change.
var tokenizer struct {
	mu    sync.Mutex
	db    *sql.DB
	terms map[string][]string
}

// maxTokenized bounds the words remembered; past it they start over.
const maxTokenized = 10000

// indexTerms returns the index terms of a query word.
func indexTerms(ctx context.Context, word string) ([]string, error) {
	tk := &tokenizer
	tk.mu.Lock()
	defer tk.mu.Unlock()
	if t, ok := tk.terms[word]; ok {
		return t, nil
	}
	if tk.db == nil {
		db, err := sql.Open("sqlite", ":memory:")
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		for _, q := range []string{
			`CREATE VIRTUAL TABLE words USING fts5(w, tokenize = '` + ftsTokenize + `')`,
			`CREATE VIRTUAL TABLE word_terms USING fts5vocab(words, instance)`,
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				db.Close()
				return nil, fmt.Errorf("search: tokenizer: %w", err)
			}
		}
		tk.db = db
	}
	t, err := tokenize(ctx, tk.db, word)
	if err != nil {
		return nil, fmt.Errorf("search: tokenizer: %w", err)
	}
	if tk.terms == nil || len(tk.terms) >= maxTokenized {
		tk.terms = map[string][]string{}
	}
	tk.terms[word] = t
	return t, nil
}

// tokenize stores word as the tokenizer table's one row and reads its
// terms in order.
func tokenize(ctx context.Context, db *sql.DB, word string) ([]string, error) {
	if _, err := db.ExecContext(ctx, `DELETE FROM words`); err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO words(rowid, w) VALUES (1, ?)`, word); err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT term FROM word_terms ORDER BY offset`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	terms := []string{}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		terms = append(terms, t)
	}
	return terms, rows.Err()
}
