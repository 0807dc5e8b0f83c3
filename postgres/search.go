package postgres

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// rankWeights are ts_rank's weights for the labels D, C, B and A: content,
// (unused), tags and title, in the 1 : 4 : 10 of SQLite's bm25 weights.
const rankWeights = `'{0.1, 0, 0.4, 1.0}'`

// rankNormalization divides a rank by 1 + the log of the document's
// length, so a long memory does not win on repetition alone (BM25's
// length normalisation, roughly).
const rankNormalization = 1

// commonShare: a term found in more than 1/commonShare of the namespace's
// memories is "common" and left out of the query while a rarer term
// remains, as on SQLite: its IDF is near zero, yet it would make every
// search rank most of the store.
const commonShare = 10

// minCommon is the fewest matches that make a term common, so that a small
// store keeps every term.
const minCommon = 200

// Search ranks the namespace's memories for the query over title, tags
// and content, with the query language and filters of the SQLite store.
// ts_rank has no notion of how rare a word is, so the score sums each
// term's ts_rank weighted by its IDF: BM25's two main ingredients. Like
// SQLite's, it leaves Snippet empty.
func (s *MemoryService) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	w := &where{args: []any{s.db.Namespace}}
	if err := w.memories(q.Filter); err != nil {
		return nil, err
	}
	terms := sqlite.QueryTerms(q.Text)
	if len(terms) == 0 {
		return nil, nil
	}
	weighted, err := s.weighTerms(ctx, terms)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	var kept, score []string
	for _, t := range weighted {
		ph := w.arg(t.term)
		kept = append(kept, t.term)
		score = append(score, fmt.Sprintf("%g * ts_rank(%s, m.fts, to_tsquery('recall', %s), %d)", t.idf, rankWeights, ph, rankNormalization))
	}
	match := w.arg(strings.Join(kept, " | "))
	sql := fmt.Sprintf(`SELECT %s, %s AS score FROM memories m
		WHERE %s AND m.fts @@ to_tsquery('recall', %s)
		ORDER BY score DESC, m.id LIMIT %s`, memoryColumns, strings.Join(score, " + "), w.sql(), match, w.arg(limit))
	rows, err := s.db.pool.Query(ctx, sql, w.args...)
	hits, err := collectRows(rows, err, func(row pgx.Row) (*recall.SearchHit, error) {
		h := &recall.SearchHit{}
		m, err := scanMemory(scoreRow{row, &h.Score})
		h.Memory = m
		return h, err
	})
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	if q.Explain {
		for i, h := range hits {
			h.Explain = &recall.HitExplain{BM25: h.Score, BM25Rank: i + 1, Fused: h.Score}
		}
	}
	return hits, nil
}

// weightedTerm is a query term and its inverse document frequency.
type weightedTerm struct {
	term string
	idf  float64
}

// weighTerms counts the namespace's memories and those matching each
// term (counting stops once a term is common), leaves common terms out
// while a rarer one remains, and returns the others with BM25's IDF.
func (s *MemoryService) weighTerms(ctx context.Context, terms []string) ([]weightedTerm, error) {
	var n int64
	if err := s.db.pool.QueryRow(ctx, `SELECT count(*) FROM memories WHERE namespace = $1`, s.db.Namespace).Scan(&n); err != nil {
		return nil, err
	}
	common := max(n/commonShare, minCommon)
	var counts []int64
	err := s.db.pool.QueryRow(ctx, `SELECT array(SELECT (SELECT count(*) FROM (SELECT 1 FROM memories
			WHERE namespace = $1 AND fts @@ to_tsquery('recall', t.term) LIMIT $3) hits)
		FROM unnest($2::text[]) WITH ORDINALITY AS t(term, i) ORDER BY t.i)`,
		s.db.Namespace, terms, common).Scan(&counts)
	if err != nil {
		return nil, err
	}
	var out []weightedTerm
	least := 0
	for i, t := range terms {
		df := counts[i]
		if df < counts[least] {
			least = i
		}
		if df < common {
			out = append(out, weightedTerm{t, idf(n, df)})
		}
	}
	if len(out) == 0 { // every term is common: the least common one ranks as well as all
		out = []weightedTerm{{terms[least], idf(n, counts[least])}}
	}
	return out, nil
}

// idf is BM25's inverse document frequency of a term found in df of n
// documents; always positive.
func idf(n, df int64) float64 {
	return math.Log(1 + (float64(n-df)+0.5)/(float64(df)+0.5))
}

// scoreRow scans a memory row followed by its score.
type scoreRow struct {
	row   pgx.Row
	score *float64
}

func (r scoreRow) Scan(dest ...any) error { return r.row.Scan(append(dest, r.score)...) }
