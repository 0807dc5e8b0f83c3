package sqlite

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"sort"
)

// A full-text search scores every row its expression matches, and scoring
// costs far more than matching (FTS5's bm25() reads each row's length with
// a statement of its own). When the query's most common kept term matches
// many rows, most of them match it alone and score low: such a row scores
// at most that term's IDF × (k1 + 1), whatever its text. rankWindow
// therefore scores first the rows of the other (rarer) terms, and leaves
// the common term's other rows unscored when the window's worst score
// beats that bound (MaxScore pruning, exact):
//
//   - FTS5's BM25 is a sum over the query's phrases, in their order, of
//     IDF × f(k1+1) / (f + k1(1 − b + b·D/avgdl)); IDF, N and avgdl are
//     the whole table's, so they are the same in any expression over the
//     same phrases, and a phrase a row lacks adds exactly 0.0;
//   - "(head) AND (tail)" and "(head) NOT (tail)" keep the full query's
//     phrase order, so they give the rows of the head terms the very same
//     scores, bit for bit; "(tail) NOT (head)", run when pruning fails,
//     keeps the tail's order, and the head phrases it puts after add 0.0;
//   - SQLite's sorter keeps, of rows of equal score, those it met first,
//     and FTS5 meets rows by rowid: the windows merge by (score, rowid).

// k1 is FTS5's BM25 constant k1: one phrase adds at most IDF × (k1 + 1).
const bm25K1 = 1.2

// minPruned is the fewest rows the tail term must match for a search to
// try pruning: below it the extra statements cost more than they can
// save.
const minPruned = 1000

// titleWeight is the title's weight in bm25Weights (the first; a test
// checks they agree). A row with a word in its title counts it at least
// titleWeight times, and scores about
// titleGain × the word's IDF at an average length: when the head's rows
// are many (headShare windows or more), the window fills with such rows,
// and titleGain × the commonest head word's IDF is the likely worst score
// of the window. Pruning is tried only when that beats the tail's bound:
// on the 200 benchmark questions at 100,000 memories a failed try (the
// tail scored after all, by a third statement) cost 0.5–1.5 ms, and
// without this estimate 42 of 56 tries failed; with it, 5 of 16.
const (
	titleWeight = 10.0
	titleGain   = (bm25K1 + 1) * titleWeight / (titleWeight + bm25K1)
	headShare   = 4
)

// rankedRow is one row of a full-text window: its rowid (memory seq) and
// its bm25() rank (negative: lower ranks first).
type rankedRow struct {
	seq  int64
	rank float64
}

// rankWindow returns the window best matches of m, best first (by rank,
// then rowid), as one statement over the whole expression would, and the
// expressions it scored (for tests: the rows scored are theirs).
func (s *MemoryService) rankWindow(ctx context.Context, m ftsMatch, window int) ([]rankedRow, []string, error) {
	head, tail, bound, ok := m.pruning()
	return s.rankPruned(ctx, m, window, head, tail, bound, ok && m.worthPruning(window, bound))
}

// rankPruned is rankWindow, pruning when try is set (tests try it
// whenever m may be pruned).
func (s *MemoryService) rankPruned(ctx context.Context, m ftsMatch, window int, head, tail string, bound float64, try bool) ([]rankedRow, []string, error) {
	if !try {
		rows, err := s.rankExpr(ctx, m.expr, m.from, window)
		return rows, []string{m.expr}, err
	}
	exprs := []string{"(" + head + ") AND (" + tail + ")", "(" + head + ") NOT (" + tail + ")"}
	var best []rankedRow
	for _, e := range exprs {
		rows, err := s.rankExpr(ctx, e, 0, window)
		if err != nil {
			return nil, nil, err
		}
		best = mergeRanked(best, rows, window)
	}
	// A row of the tail terms alone scores below bound; the margin covers
	// the rounding of the sum and of log (Go's and C's).
	if len(best) < window || -best[window-1].rank <= bound*(1+1e-9) {
		rest := "(" + tail + ") NOT (" + head + ")"
		rows, err := s.rankExpr(ctx, rest, 0, window)
		if err != nil {
			return nil, nil, err
		}
		best, exprs = mergeRanked(best, rows, window), append(exprs, rest)
	}
	// The statements and the counts the bound came from must have seen
	// one index: a write in between (another connection, another
	// process) would mix two. Then the expression is scored at once.
	if same, err := s.indexUnchanged(ctx, m.index); err != nil || !same {
		if err != nil {
			return nil, nil, err
		}
		rows, err := s.rankExpr(ctx, m.expr, m.from, window)
		return rows, append(exprs, m.expr), err
	}
	return best, exprs, nil
}

// indexUnchanged says whether the full-text index's structure record is
// still index: FTS5 rewrites it (with a write counter) in every
// transaction that changes the index.
func (s *MemoryService) indexUnchanged(ctx context.Context, index []byte) (bool, error) {
	var now []byte
	if err := s.db.readQueryRow(ctx, `SELECT block FROM memories_fts_data WHERE id = 10`).Scan(&now); err != nil {
		return false, fmt.Errorf("search: %w", err)
	}
	return bytes.Equal(now, index), nil
}

// pruning says how a search of m may be pruned: the head (all kept terms
// but the most common) and tail expressions, and the bound of a row that
// matches the tail alone. ok is false when it may not.
func (m ftsMatch) pruning() (head, tail string, bound float64, ok bool) {
	k := len(m.terms) - 1
	if k < 1 || m.from > 0 || m.rows <= 0 || len(m.counts) != len(m.terms) || m.index == nil {
		return "", "", 0, false
	}
	for _, n := range m.counts[k:] {
		bound += (bm25K1 + 1) * idf(m.rows, n)
	}
	return quoteTerms(m.terms[:k]), quoteTerms(m.terms[k:]), bound, true
}

// worthPruning says whether pruning m likely pays (see titleGain).
func (m ftsMatch) worthPruning(window int, bound float64) bool {
	k := len(m.terms) - 1
	headRows := 0
	for _, n := range m.counts[:k] {
		headRows += n
	}
	return m.counts[k] >= minPruned && headRows >= headShare*window && titleGain*idf(m.rows, m.counts[k-1]) > bound
}

// idf is FTS5's IDF of a phrase matching hits of n rows, floored as
// FTS5 floors it.
func idf(n int64, hits int) float64 {
	v := math.Log((float64(n) - float64(hits) + 0.5) / (float64(hits) + 0.5))
	if v <= 0 {
		return 1e-6
	}
	return v
}

// rankExpr runs the window statement for one FTS5 expression.
func (s *MemoryService) rankExpr(ctx context.Context, expr string, from int64, window int) ([]rankedRow, error) {
	st, err := s.db.readStmt(ctx, `SELECT rowid, bm25(memories_fts, `+bm25Weights+`) AS score
		FROM memories_fts WHERE memories_fts MATCH ? AND rowid >= ? ORDER BY score LIMIT `+boundLimit)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	rows, err := st.QueryContext(ctx, expr, from, window)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var out []rankedRow
	for rows.Next() {
		var r rankedRow
		if err := rows.Scan(&r.seq, &r.rank); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// mergeRanked returns the window best rows of a and b (disjoint), by rank
// then rowid.
func mergeRanked(a, b []rankedRow, window int) []rankedRow {
	out := append(append([]rankedRow(nil), a...), b...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].rank != out[j].rank {
			return out[i].rank < out[j].rank
		}
		return out[i].seq < out[j].seq
	})
	return out[:min(len(out), window)]
}
