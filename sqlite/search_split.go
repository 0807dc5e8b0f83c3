package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
)

// splitRows is how many rows a search must score before its scoring is
// split in two rowid ranges, scored side by side on two readers. Scoring
// costs about 1.4 µs a row, most of it FTS5 looking up each row's
// column sizes: a query scoring the full budget (maxScored) takes 8 ms
// alone, the tail of both BM25 and hybrid search. The split costs CPU
// (each half counts the terms' matches again for their IDF, and reads
// pages into its own reader's cache: about a fifth more for the
// query), so only the queries that make the tail pay it.
const splitRows = 3000

// ranked is a row of the full-text index with its BM25 rank (FTS5's
// sign: lower is better).
type ranked struct {
	seq  int64
	rank float64
}

// rankMatches returns the best window rows matching m, best first. SQLite
// keeps, among rows of equal rank, those it met first (its sorter
// numbers the rows it inserts), and FTS5 meets rows by ascending rowid:
// the order is rank, then rowid. A search scoring many rows is split at
// a rowid into two ranges scored concurrently, each keeping its best
// window rows, then merged in that same order, so that the window is
// the one a single query returns. BM25's statistics (row count,
// average size, each term's matches) are those of the whole index
// whatever the range, so the ranks are the same too.
func (s *MemoryService) rankMatches(ctx context.Context, m ftsMatch, window int) ([]ranked, error) {
	split := splitRows
	if s.splitRows > 0 {
		split = s.splitRows
	}
	lo := max(m.from, 1)
	// With other searches in flight (a hybrid search's vector side,
	// 'recall serve' under load) the cores are taken: splitting would
	// only add its cost. Measured, it did: hybrid searches took 8-10%
	// more CPU and no less time.
	if m.rows < split || m.last-lo < 2 || s.db.searches.Load() > 1 {
		return s.rankRange(ctx, m.expr, m.from, math.MaxInt64, window)
	}
	mid := lo + (m.last-lo)/2
	type half struct {
		rows []ranked
		err  error
	}
	upper := make(chan half, 1)
	go func() {
		r, err := s.rankRange(ctx, m.expr, mid, math.MaxInt64, window)
		upper <- half{r, err}
	}()
	rows, err := s.rankRange(ctx, m.expr, m.from, mid-1, window)
	up := <-upper
	if err == nil {
		err = up.err
	}
	if err != nil {
		return nil, err
	}
	s.splits.Add(1)
	rows = append(rows, up.rows...)
	slices.SortFunc(rows, func(a, b ranked) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	return rows[:min(len(rows), window)], nil
}

// rankRange returns the best window rows matching expr with a rowid in
// [from, to], best first.
func (s *MemoryService) rankRange(ctx context.Context, expr string, from, to int64, window int) ([]ranked, error) {
	st, err := s.db.readStmt(ctx, `SELECT rowid, bm25(memories_fts, `+bm25Weights+`) AS score
		FROM memories_fts WHERE memories_fts MATCH ? AND rowid >= ? AND rowid <= ? ORDER BY score LIMIT `+boundLimit)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	rows, err := st.QueryContext(ctx, expr, from, to, window)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var out []ranked
	for rows.Next() {
		var r ranked
		if err := rows.Scan(&r.seq, &r.rank); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return out, nil
}
