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
// a statement of its own). The query's common kept words match many rows,
// most of which match them alone and score low: a row that matches only
// some of the words scores below the sum of their IDF × (k1 + 1),
// whatever its text. A search therefore scores first the rows of the
// rarer words (the essential ones), and leaves unscored the rows of the
// commoner words alone when the score of the last row it needs (its
// limit) beats the sum of their bounds (MaxScore pruning, exact):
//
//   - FTS5's BM25 is a sum over the query's phrases, in their order, of
//     IDF × f(k1+1) / (f + k1(1 − b + b·D/avgdl)), where f is the
//     phrase's hits weighted by column; since the length term is
//     positive, f/(f + …) < 1 and a phrase adds less than IDF × (k1+1).
//     IDF (floored at 1e-6), N and avgdl are the whole table's, so they
//     are the same in any expression over the same phrases, and a phrase
//     a row lacks adds exactly 0.0;
//   - the words are kept rarest first (matchExpr), so their bounds
//     ascend from last to first: the non-essential words are always a
//     suffix of the expression;
//   - a level scores the rows of some words M that match none of the
//     words scored before (H), with statements whose phrases are M, then
//     the words after (T), then H: "((M) AND (T)) NOT (H)" and
//     "(M) NOT ((H) OR (T))" (without the empty parts). Of the rows a
//     statement returns, only the phrases of M and T can be present, and
//     they keep the full query's order; H's phrases, absent, add 0.0
//     wherever they stand: each row gets the very score, bit for bit, the
//     single statement gives it, and every row is scored at most once;
//   - SQLite's sorter keeps, of rows of equal score, those it met first,
//     and FTS5 meets rows by rowid: the windows merge by (score, rowid).
//     Unscored rows score strictly below the rows above the bound (the
//     check is strict, with a margin), so they tie with none of them.

// k1 is FTS5's BM25 constant k1: one phrase adds at most IDF × (k1 + 1).
const bm25K1 = 1.2

// minPruned is the fewest rows the non-essential words must match for a
// search to try pruning: below it the extra statements cost more than
// they can save.
const minPruned = 1000

// titleWeight is the title's weight in bm25Weights (the first; a test
// checks they agree). A row with a word in its title counts it at least
// titleWeight times, and scores about
// titleGain × the word's IDF at an average length: when the essential
// words' rows are many (headShare times the rows needed or more), the
// needed rows are such rows, and titleGain × the commonest essential
// word's IDF is the likely score of the last of them. Pruning is tried only when that
// beats the bound of the words left out: on the 200 benchmark questions
// at 100,000 memories a failed try (the common word scored after all, by
// a third statement) cost 0.5–1.5 ms, and without this estimate 42 of 56
// tries of one common word failed; with it, 5 of 16.
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

// ranking is a full-text window being scored: the window best rows of
// those scored so far, by rank then rowid, and the expressions scored
// (for tests: the rows scored are theirs). Once the rows of terms[:done]
// are scored, every row not scored scores below bound(done), so the
// window's rows above it are the single statement's first rows (exact).
type ranking struct {
	m      ftsMatch
	window int
	rows   []rankedRow
	exprs  []string
	first  int  // the words the first level scores
	try    bool // prune; else the expression is scored at once
	done   int  // terms[:done]'s rows are scored
	all    bool // every row is scored

	ownTried bool // ownRank was asked
}

// ownExpr marks, in a ranking's expressions, one that ownRank scored.
const ownExpr = "own: "

// newRanking starts the ranking of m's window best rows, pruning when
// that likely pays for a search that needs the first need of them.
func newRanking(m ftsMatch, window, need int) *ranking {
	first, ok := m.essential(need)
	if m.first > 0 {
		first, ok = m.first, m.prunable()
	}
	return &ranking{m: m, window: window, first: first, try: ok}
}

// exact is how many of the window's first rows are the single
// statement's: all once every row is scored, else those above the bound
// of the rows not scored (the margin covers the rounding of the sum and
// of log, Go's and C's).
func (r *ranking) exact() int {
	if r.all {
		return len(r.rows)
	}
	b := r.m.bound(r.done) * (1 + 1e-9)
	n := 0
	for n < len(r.rows) && -r.rows[n].rank > b {
		n++
	}
	return n
}

// known says whether the window's first need rows are exact.
func (r *ranking) known(need int) bool {
	return r.all || len(r.rows) >= need && -r.rows[need-1].rank > r.m.bound(r.done)*(1+1e-9)
}

// rankWindow returns the window best matches of m, best first (by rank,
// then rowid), as one statement over the whole expression would, and the
// expressions it scored.
func (s *MemoryService) rankWindow(ctx context.Context, m ftsMatch, window int) ([]rankedRow, []string, error) {
	r := newRanking(m, window, window)
	err := s.score(ctx, r, window)
	return r.rows, r.exprs, err
}

// score scores r until its first need rows are exact (need ≤ window):
// level by level, each scoring the words whose rows may still rank.
func (s *MemoryService) score(ctx context.Context, r *ranking, need int) error {
	if r.known(need) {
		return nil
	}
	if !r.ownTried {
		// Scored by the process itself when it can (ownRank): every row
		// of the window at once, exact.
		r.ownTried = true
		rows, ok, err := s.ownRank(ctx, r.m, r.window)
		if err != nil {
			return err
		}
		if ok {
			r.rows, r.exprs, r.all = rows, append(r.exprs, ownExpr+r.m.expr), true
			return nil
		}
	}
	if !r.try {
		rows, err := s.rankExpr(ctx, r.m.expr, r.m.from, r.window)
		r.rows, r.exprs, r.all = rows, append(r.exprs, r.m.expr), true
		return err
	}
	for next := r.first; !r.known(need); {
		if r.done > 0 {
			// Up to the first suffix of words that the need-th row beats
			// (all, when there are fewer rows than need).
			for next = r.done + 1; next < len(r.m.terms); next++ {
				if len(r.rows) >= need && -r.rows[need-1].rank > r.m.bound(next)*(1+1e-9) {
					break
				}
			}
		}
		for _, e := range levelExprs(r.m.terms, r.done, next) {
			rows, err := s.rankExpr(ctx, e, 0, r.window)
			if err != nil {
				return err
			}
			r.rows, r.exprs = mergeRanked(r.rows, rows, r.window), append(r.exprs, e)
		}
		r.done, r.all = next, next == len(r.m.terms)
	}
	// The statements and the counts the bounds came from must have seen
	// one index: a write in between (another connection, another
	// process) would mix two. Then the expression is scored at once.
	if same, err := s.indexUnchanged(ctx, r.m); err != nil || !same {
		if err != nil {
			return err
		}
		rows, err := s.rankExpr(ctx, r.m.expr, r.m.from, r.window)
		r.rows, r.exprs, r.all, r.try = rows, append(r.exprs, r.m.expr), true, false
		return err
	}
	return nil
}

// levelExprs are the statements' expressions that score the rows of
// terms[done:next] that match none of terms[:done], with the phrases in
// the order the package comment gives.
func levelExprs(terms []string, done, next int) []string {
	h, m, t := terms[:done], quoteTerms(terms[done:next]), terms[next:]
	switch {
	case len(t) == 0 && len(h) == 0:
		return []string{m}
	case len(t) == 0:
		return []string{"(" + m + ") NOT (" + quoteTerms(h) + ")"}
	case len(h) == 0:
		return []string{"(" + m + ") AND (" + quoteTerms(t) + ")", "(" + m + ") NOT (" + quoteTerms(t) + ")"}
	}
	return []string{
		"((" + m + ") AND (" + quoteTerms(t) + ")) NOT (" + quoteTerms(h) + ")",
		"(" + m + ") NOT ((" + quoteTerms(h) + ") OR (" + quoteTerms(t) + "))",
	}
}

// indexUnchanged says whether the full-text index is still the one m was
// counted in. FTS5 rewrites its structure record (with a write counter)
// in every transaction that changes the index, but a row with no token
// (only emoji or punctuation) changes only the averages record: its row
// count, and so every word's IDF and every score.
func (s *MemoryService) indexUnchanged(ctx context.Context, m ftsMatch) (bool, error) {
	var structure, averages []byte
	if err := s.db.readQueryRow(ctx, `SELECT
		(SELECT block FROM memories_fts_data WHERE id = 10),
		(SELECT block FROM memories_fts_data WHERE id = 1)`).Scan(&structure, &averages); err != nil {
		return false, fmt.Errorf("search: %w", err)
	}
	return bytes.Equal(structure, m.index) && bytes.Equal(averages, m.averages), nil
}

// prunable says whether a search of m may be pruned at all: it has two
// kept words or more, each counted exactly in the index the row count
// and the structure record come from, and scores every row (no rowid
// floor).
func (m ftsMatch) prunable() bool {
	return len(m.terms) >= 2 && m.from == 0 && m.rows > 0 && len(m.counts) == len(m.terms) && m.index != nil
}

// bound is what a row matching only words of terms[k:] scores less than.
func (m ftsMatch) bound(k int) float64 {
	var b float64
	for _, n := range m.counts[k:] {
		b += (bm25K1 + 1) * idf(m.rows, n)
	}
	return b
}

// essential says how many of m's first words a search that needs need
// rows scores first: the fewest whose rows likely fill need rows above
// the others' bound (see titleGain) while the others match minPruned rows
// or more; ok is false when no split likely pays.
func (m ftsMatch) essential(need int) (k int, ok bool) {
	if !m.prunable() {
		return 0, false
	}
	head, tail := 0, 0
	for _, n := range m.counts {
		tail += n
	}
	for k = 1; k < len(m.terms); k++ {
		head, tail = head+m.counts[k-1], tail-m.counts[k-1]
		if tail >= minPruned && head >= headShare*need && titleGain*idf(m.rows, m.counts[k-1]) > m.bound(k) {
			return k, true
		}
	}
	return 0, false
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
