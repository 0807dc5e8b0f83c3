package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
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
// The lengths are read once (100,000 rows: ~42 CPU-ms), a chunk a
// search (lengthsChunk), and only when a process has searched one index
// version often enough (lengthsAfter), so that
// a process that searches once (a CLI search, a hook) never pays for
// them, and a store written between searches scores with bm25() as
// before. A search that scores only the newest rows of a common word
// (from > 0) is scored from rows the process holds (bm25_newest.go): an
// fts5vocab table has no rowid bound and would read the word's every
// row at each search.

// instanceValue is an instance as the instance statements give it:
// its rowid × 4 + its column.
const instanceValue = `doc * 4 + CASE col WHEN 'title' THEN 0 WHEN 'content' THEN 1 ELSE 2 END`

// termRows is one row's weighted count of a phrase (f).
type termRows struct {
	doc int64
	f   float64
}

// columnWeights are bm25Weights by column (title, content, tags).
var columnWeights = [3]float64{10, 1, 4}

// ownRank returns m's window best rows, by rank then rowid, with the
// ranks bm25() gives them, when it can score them itself (ok): the
// process holds every row's length at m's index version, each word is
// one index term, and m scores all its rows or, from a rowid on, is one
// word whose rows the process holds (ownRankNewest). The index must be
// m's from the first statement to the last, as the lengths are.
func (s *MemoryService) ownRank(ctx context.Context, m ftsMatch, window int) (rows []rankedRow, ok bool, err error) {
	if len(m.terms) == 0 || m.index == nil || m.rows <= 0 || m.from != 0 && len(m.terms) != 1 {
		return nil, false, nil
	}
	n, tokens, ok := ftsTotals(m.averages)
	if !ok || n != m.rows || n <= 0 {
		return nil, false, nil
	}
	if !s.storeTokenized(ctx) {
		return nil, false, nil
	}
	lens := s.rowLengths(ctx, m)
	if lens == nil {
		return nil, false, nil
	}
	// The tokenizer is a database of the process's own: its failure is
	// not the store's, and bm25() scores without it.
	wordTerms, err := indexTerms(ctx, m.terms)
	if err != nil {
		return nil, false, nil
	}
	terms := make([]string, len(m.terms))
	for i, t := range wordTerms {
		if len(t) != 1 {
			return nil, false, nil
		}
		terms[i] = t[0]
	}
	avgdl := float64(tokens) / float64(n)
	if m.from != 0 {
		return s.ownRankNewest(ctx, m, terms[0], lens, avgdl, window)
	}
	instStmt, err := s.db.readStmt(ctx, `SELECT group_concat(`+instanceValue+`, ',') FROM `+ftsInstances+` WHERE term = ?`)
	if err != nil {
		return nil, false, nil
	}
	// Each word's rows and IDF at this version: held from an earlier
	// search of the version, or read here and held once the index is
	// confirmed to be the version's.
	v := indexVersion(m)
	held, read := s.db.lengths.heldWhole(v, terms), make([]bool, len(terms))
	lists := make([][]termRows, len(terms))
	idfs := make([]float64, len(terms))
	for i, t := range terms {
		if held[i] == nil {
			if held[i], err = s.readWhole(ctx, instStmt, n, t, len(lens)); err != nil || held[i] == nil {
				return nil, false, nil
			}
			read[i] = true
		}
		lists[i], idfs[i] = held[i].rows, held[i].idf
	}
	rows, ok = scoreLists(lists, idfs, lens, avgdl, window)
	if !ok {
		return nil, false, nil
	}
	if same, err := s.indexUnchanged(ctx, m); err != nil || !same {
		return nil, false, err
	}
	s.db.lengths.holdRead(v, terms, held, read)
	return rows, true, nil
}

// readWhole reads all of term's rows and its IDF over n rows (nil when
// they cannot be scored here). A term no row has is held too, with no
// rows: it adds nothing anywhere.
func (s *MemoryService) readWhole(ctx context.Context, instStmt *sql.Stmt, n int64, term string, known int) (*heldWord, error) {
	rows, hits, err := termInstances(ctx, instStmt, known, 0, term)
	if err != nil || rows == nil {
		return nil, err
	}
	if hits == 0 {
		return &heldWord{}, nil
	}
	idf, err := termIDF(ctx, s.db, n, hits)
	if err != nil {
		return nil, err
	}
	return &heldWord{idf: idf, rows: rows}, nil
}

// termInstances reads a term's rows from the rowid from on, each with
// its instances' weights summed, and how many rows the statement gave
// (hits: with all the term's instances, bm25()'s count for the IDF);
// nil when a row is past the lengths (another version's) or the
// instances are not by rowid. The
// statement gives all the term's instances in one value (rowid × 4 +
// column, comma-separated): a row of the driver for each instance cost
// more than FTS5's scoring of it.
func termInstances(ctx context.Context, st *sql.Stmt, known int, from int64, args ...any) (list []termRows, hits int64, err error) {
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var text sql.RawBytes
	if rows.Next() {
		if err := rows.Scan(&text); err != nil {
			return nil, 0, fmt.Errorf("search: %w", err)
		}
	}
	// Parsed as it goes: a common word's value holds every instance
	// (about 100,000), and only the rows from from on are kept.
	list = []termRows{}
	last := int64(-1)
	for len(text) > 0 {
		v, rest, ok := commaInt(text)
		if !ok || v&3 >= int64(len(columnWeights)) {
			// Not a number, or a column the table does not have (a
			// corrupt index): bm25() scores, and reports it.
			return nil, 0, nil
		}
		text = rest
		doc, w := v>>2, columnWeights[v&3]
		switch {
		case doc < last || doc >= int64(known):
			// Not by rowid (the table gives them so), or past the
			// lengths (another version's): bm25() scores.
			return nil, 0, nil
		case doc != last:
			hits++
			if doc >= from {
				list = append(list, termRows{doc, w})
			}
		case doc < from:
		default: // another instance of the last row
			list[len(list)-1].f += w
		}
		last = doc
	}
	rows.Close() // before Err: see readLengths
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	return list, hits, nil
}

// commaInt parses the decimal number text begins with, up to a comma or
// its end, and returns the text after the comma; ok is false when there
// is no such number (no digit, another character, past an int64).
func commaInt(text []byte) (v int64, rest []byte, ok bool) {
	i := 0
	for ; i < len(text) && text[i] != ','; i++ {
		if text[i] < '0' || text[i] > '9' || v > math.MaxInt64/10-9 {
			return 0, nil, false
		}
		v = v*10 + int64(text[i]-'0')
	}
	return v, text[min(i+1, len(text)):], i > 0
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
				// Each product that feeds an addition is converted
				// explicitly: Go may fuse x*y + z into one FMA (arm64
				// does, amd64 at GOAMD64=v3), rounding once where C's
				// bm25() (modernc's, which never fuses) rounds twice,
				// and an explicit conversion rounds (the spec). b*d is
				// divided, not added, and f*(k1+1) divided too.
				denom := f + float64(k1*(1-b+b*d/avgdl))
				score += float64(idfs[i] * ((f * (k1 + 1.0)) / denom))
				pos[i]++
			}
		}
		top.add(rankedRow{seq: doc, rank: -1.0 * score})
	}
	return top.sorted(), true
}
