package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"sort"
)

// A search that scores only the newest rows of a common word (matchExpr's
// row budget) cannot be scored from an fts5vocab table at each search:
// the table has no rowid bound, so it reads the word's every row (84,000
// for the commonest word at 100,000 memories), which costs twice what
// bm25() does over the newest 6,000. Common words come back (Zipf: 85 of
// the benchmark's 1,000 questions are such searches, over 24 words), so
// the process holds, per index version, each such word's newest rows
// with their weighted counts and its IDF, read at the word's second
// search of the version or, on a store where the word has more rows to
// walk, later (wordReadAfter); then a search of it scores only those
// rows.

// wordsAfter is the earliest search of a word, at one index version,
// that reads its rows: the first is bm25()'s, so that a word asked once
// never costs the read. The read walks all the word's instances, so on
// a larger store it waits for more searches (wordReadAfter).
const wordsAfter = 2

// wordRowsPerSearchSaved is the rows of a word whose read costs what one
// search of its newest rows scored by the process saves over bm25(): at
// 1,000,000 memories "jio" (842,719 rows) took ~160 CPU-ms to read, and
// a search of its newest rows ~30 CPU-ms with bm25() against ~1 held.
// At 100,000 no word has the rows to wait past wordsAfter.
const wordRowsPerSearchSaved = 150000

// wordReadAfter is the search of m's one word, at m's version, that
// reads its rows from m.from on: after as many searches as the read
// costs, so that on any store the read waits for the searches it pays
// for. The word's rows are estimated from m.from: the budget's newest
// rows lie from it to the last rowid (known), and the word is taken to
// be as common among all m.rows.
func (s *MemoryService) wordReadAfter(m ftsMatch, known int) int {
	per := int64(wordRowsPerSearchSaved)
	if s.db.lengths.wordRows > 0 {
		per = int64(s.db.lengths.wordRows)
	}
	budget := int64(maxScored)
	if s.maxScored > 0 {
		budget = int64(s.maxScored)
	}
	span := int64(known) - m.from
	if span <= 0 || m.rows <= 0 {
		return wordsAfter
	}
	rows := min(m.rows, budget*m.rows/span)
	return max(wordsAfter, int(rows/per))
}

// maxHeldRows bounds the rows held in each set of words (16 bytes
// each), and maxHeldWords its words (a word no row has holds none);
// past either the set starts over.
const (
	maxHeldRows  = 500000
	maxHeldWords = 10000
)

// heldWord is a common word's rows from a rowid on, at one version.
type heldWord struct {
	from int64
	idf  float64
	rows []termRows // by rowid
}

// heldWords are the words held at one index version, and the searches
// of the words not held yet, by version and word. The common words'
// newest rows and the words held whole (ownRank) are bounded apart: the
// whole words of ever new questions fill their bound, and must not
// drop the few common words' rows, which cost a read of every instance
// each.
type heldWords struct {
	version    []byte
	newest     heldSet // from a rowid on (ownRankNewest)
	whole      heldSet // all their rows (from 0)
	asked      map[askedWord]int
	reading    map[askedWord]bool // a search reads the word's rows
	reads      int                // reads begun (tests count them)
	wholeReads int                // words held whole (tests count them)
}

// heldSet is a set of held words, with their rows counted.
type heldSet struct {
	words map[string]*heldWord
	rows  int
}

// put holds w as term's, starting the set over first when it would pass
// maxHeldRows or maxHeldWords.
func (s *heldSet) put(term string, w *heldWord) {
	// The rows grew by append, to up to twice their length in capacity,
	// which the count would not see: held, they take only their length.
	if cap(w.rows) > len(w.rows) {
		w.rows = append(make([]termRows, 0, len(w.rows)), w.rows...)
	}
	if s.words == nil || s.rows+len(w.rows) > maxHeldRows || len(s.words) >= maxHeldWords && s.words[term] == nil {
		s.words, s.rows = map[string]*heldWord{}, 0
	}
	if old := s.words[term]; old != nil {
		s.rows -= len(old.rows)
	}
	s.words[term] = w
	s.rows += len(w.rows)
}

// askedWord is a word searched at a version (indexVersion's string).
type askedWord struct{ version, term string }

// maxAsked bounds the words counted; past it the counts start over.
const maxAsked = 10000

// heldWord returns term's rows from from on at version v, or whether
// this search is the one that reads them: the after-th of the word at v. Words held at another version
// are not v's, and stay: a search begun before a write (an older
// version) must not drop the newer version's words; only hold, once the
// index is confirmed at its version, moves them on.
func (l *ftsLengths) heldWord(v []byte, term string, from int64, after int) (*heldWord, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := &l.words
	if bytes.Equal(h.version, v) {
		if w := h.newest.words[term]; w != nil && w.from <= from {
			return w, false
		}
		if w := h.whole.words[term]; w != nil {
			return w, false
		}
	}
	k := askedWord{string(v), term}
	if h.asked == nil || len(h.asked) >= maxAsked && h.asked[k] == 0 {
		h.asked = map[askedWord]int{}
	}
	h.asked[k]++
	// One search reads a word at a time: the others score with bm25()
	// meanwhile (a common word's read costs twice its bm25() search).
	if h.asked[k] < after || h.reading[k] {
		return nil, false
	}
	if h.reading == nil {
		h.reading = map[askedWord]bool{}
	}
	h.reading[k] = true
	h.reads++
	return nil, true
}

// hold keeps term's rows at version v (w nil: the read failed), which
// the search that read them has confirmed is the index's.
func (l *ftsLengths) hold(v []byte, term string, w *heldWord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.holdLocked(v, term, w)
}

// holdLocked is hold with l.mu held.
func (l *ftsLengths) holdLocked(v []byte, term string, w *heldWord) {
	h := &l.words
	k := askedWord{string(v), term}
	delete(h.reading, k)
	if w == nil {
		return
	}
	delete(h.asked, k)
	if !bytes.Equal(h.version, v) {
		h.version, h.newest, h.whole = bytes.Clone(v), heldSet{}, heldSet{}
	}
	if w.from == 0 {
		h.whole.put(term, w)
	} else {
		h.newest.put(term, w)
	}
}

// heldWhole returns, for each term, all its rows held at version v, or
// nil. A search that scores all of its words' rows reads each word's
// every row anyway, so it holds them from its first search (holdRead):
// words come back across questions, and a held word costs no statement.
func (l *ftsLengths) heldWhole(v []byte, terms []string) []*heldWord {
	l.mu.Lock()
	defer l.mu.Unlock()
	held := make([]*heldWord, len(terms))
	if !bytes.Equal(l.words.version, v) {
		return held
	}
	for i, t := range terms {
		held[i] = l.words.whole.words[t]
	}
	return held
}

// holdRead holds the words a search read (read[i]) with all their rows,
// once it has confirmed the index is at version v.
func (l *ftsLengths) holdRead(v []byte, terms []string, words []*heldWord, read []bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, t := range terms {
		if read[i] {
			l.holdLocked(v, t, words[i])
			l.words.wholeReads++
		}
	}
}

// ownRankNewest is ownRank for a match of one word scored from the rowid
// m.from on.
func (s *MemoryService) ownRankNewest(ctx context.Context, m ftsMatch, term string, lens []int32, avgdl float64, window int) ([]rankedRow, bool, error) {
	v := indexVersion(m)
	w, read := s.db.lengths.heldWord(v, term, m.from, s.wordReadAfter(m, len(lens)))
	if s.db.lengths.afterAsk != nil {
		s.db.lengths.afterAsk()
	}
	if w == nil && !read {
		return nil, false, nil
	}
	// The read ends with the search whatever comes of it; the rows are
	// held (keep) only when it is scored, the index confirmed at v.
	var keep *heldWord
	if read {
		defer func() { s.db.lengths.hold(v, term, keep) }()
		var err error
		if w, err = s.readWord(ctx, m, term, len(lens)); w == nil || err != nil {
			return nil, false, nil
		}
	}
	rows := w.rows[sort.Search(len(w.rows), func(i int) bool { return w.rows[i].doc >= m.from }):]
	ranked, ok := scoreLists([][]termRows{rows}, []float64{w.idf}, lens, avgdl, window)
	if !ok {
		return nil, false, nil
	}
	if same, err := s.indexUnchanged(ctx, m); err != nil || !same {
		return nil, false, err
	}
	if read {
		keep = w
	}
	return ranked, true, nil
}

// readWord reads term's rows from m.from on and its IDF (nil when they
// cannot be scored here). The table still walks the word's every
// instance, but only those from m.from on become text for the process
// (a common word's newest 6,000 rows of 84,000): the read costs about
// half. Its row count, which the IDF needs, is then a statement of its
// own, which walks the rows without their instances.
func (s *MemoryService) readWord(ctx context.Context, m ftsMatch, term string, known int) (*heldWord, error) {
	instStmt, err := s.db.readStmt(ctx, `SELECT group_concat(`+instanceValue+`, ',') FROM `+ftsInstances+` WHERE term = ?1 AND doc >= ?2`)
	if err != nil {
		return nil, err
	}
	countStmt, err := s.db.readStmt(ctx, `SELECT doc FROM `+ftsTermRows+` WHERE term = ?`)
	if err != nil {
		return nil, err
	}
	var hits int64
	switch err := countStmt.QueryRowContext(ctx, term).Scan(&hits); {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, err
	}
	rows, _, err := termInstances(ctx, instStmt, known, m.from, term, m.from)
	if err != nil || rows == nil || hits == 0 {
		return nil, err
	}
	idf, err := termIDF(ctx, s.db, m.rows, hits)
	if err != nil {
		return nil, err
	}
	return &heldWord{from: m.from, idf: idf, rows: rows}, nil
}
