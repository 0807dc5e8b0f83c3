package sqlite

import (
	"bytes"
	"context"
	"database/sql"
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
// search of the version; then a search of it scores only those rows.

// wordsAfter is the search of a word, at one index version, that reads
// its rows: the first is bm25()'s, so that a word asked once never
// costs the read.
const wordsAfter = 2

// maxHeldRows bounds the rows held for all words (16 bytes each); past
// it they start over.
const maxHeldRows = 500000

// heldWord is a common word's rows from a rowid on, at one version.
type heldWord struct {
	from int64
	idf  float64
	rows []termRows // by rowid
}

// heldWords are the words held at one index version, and the searches
// of the words not held yet.
type heldWords struct {
	version []byte
	words   map[string]*heldWord
	asked   map[string]int
	rows    int
}

// at drops the words of another version than v (l.mu held).
func (h *heldWords) at(v []byte) {
	if !bytes.Equal(h.version, v) || h.rows > maxHeldRows {
		*h = heldWords{version: bytes.Clone(v), words: map[string]*heldWord{}, asked: map[string]int{}}
	}
}

// heldWord returns term's rows from from on at version v, or whether
// this search is the one that reads them.
func (l *ftsLengths) heldWord(v []byte, term string, from int64) (*heldWord, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.words.at(v)
	if w := l.words.words[term]; w != nil && w.from <= from {
		return w, false
	}
	l.words.asked[term]++
	return nil, l.words.asked[term] >= wordsAfter
}

// hold keeps term's rows at version v.
func (l *ftsLengths) hold(v []byte, term string, w *heldWord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.words.at(v)
	l.words.words[term] = w
	l.words.rows += len(w.rows)
}

// ownRankNewest is ownRank for a match of one word scored from the rowid
// m.from on.
func (s *MemoryService) ownRankNewest(ctx context.Context, m ftsMatch, term string, lens []int32, avgdl float64, window int, idfStmt, instStmt *sql.Stmt) ([]rankedRow, bool, error) {
	v := indexVersion(m)
	w, read := s.db.lengths.heldWord(v, term, m.from)
	if w == nil && !read {
		return nil, false, nil
	}
	if read {
		idf, found, err := termIDF(ctx, idfStmt, m.rows, term)
		if err != nil || !found {
			return nil, false, nil
		}
		rows, err := termInstances(ctx, instStmt, term, len(lens), m.from)
		if err != nil || rows == nil {
			return nil, false, nil
		}
		w = &heldWord{from: m.from, idf: idf, rows: rows}
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
		s.db.lengths.hold(v, term, w)
	}
	return ranked, true, nil
}
