package postgres

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
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

// maxScored bounds the rows one search ranks, so that a query of common
// words costs about the same on any store: ts_rank takes some 5 µs a row
// here, so 2,000 rows are about 10 ms. When the words kept are expected to
// match more, only their newest matches are ranked (the newest memories
// are the likelier answer when a word says little), as on SQLite.
const maxScored = 2000

// Search ranks the namespace's memories for the query over title, tags
// and content, with the query language and filters of the SQLite store.
// ts_rank has no notion of how rare a word is, so the score sums each
// term's ts_rank weighted by its IDF: BM25's two main ingredients. Like
// SQLite's, it leaves Snippet empty.
func (s *MemoryService) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	w := newWhere("m", s.db.Namespace)
	if err := w.memories(q.Filter); err != nil {
		return nil, err
	}
	terms := ftsquery.Terms(q.Text)
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
	var matches float64
	for _, t := range weighted {
		matches += t.df
		ph := w.arg(t.term)
		kept = append(kept, t.term)
		score = append(score, fmt.Sprintf("%g * ts_rank(%s, m.fts, to_tsquery('recall', %s), %d)", t.idf, rankWeights, ph, rankNormalization))
	}
	match := w.arg(strings.Join(kept, " | "))
	// Ranking reads only ids and vectors; the memories themselves are
	// loaded for the hits alone, so sorts never carry their content.
	from := "memories m"
	cond := fmt.Sprintf("%s AND m.fts @@ to_tsquery('recall', %s)", w.sql(), match)
	if matches > maxScored {
		from = fmt.Sprintf("(SELECT m.id, m.fts FROM memories m WHERE %s ORDER BY m.seq DESC LIMIT %d) m", cond, maxScored)
		cond = "true"
	}
	sql := fmt.Sprintf(`WITH ranked AS (SELECT m.id, %s AS score FROM %s WHERE %s ORDER BY score DESC, m.id LIMIT %s)
		SELECT %s, r.score FROM ranked r JOIN memories m ON m.namespace = $1 AND m.id = r.id
		ORDER BY r.score DESC, m.id`, strings.Join(score, " + "), from, cond, w.arg(limit), memoryColumns)
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
	term    string
	df, idf float64 // df: how many memories hold it, estimated
}

// weighTerms estimates each term's document frequency, leaves common
// terms out while a rarer one remains, and returns the others with BM25's
// IDF. The estimate comes from the planner's statistics once the table has
// been analyzed, else (a new, small store) from counting.
func (s *MemoryService) weighTerms(ctx context.Context, terms []string) ([]weightedTerm, error) {
	st, err := s.db.stats.get(ctx, s.db.pool)
	if err != nil {
		return nil, err
	}
	var n float64
	var dfs []float64
	if st.ok && st.rows >= minCommon*commonShare {
		var lexemes []string
		// The statistics list stemmed lexemes: a term is looked up as the
		// index stores it.
		if err := s.db.pool.QueryRow(ctx, `SELECT array(SELECT coalesce((SELECT lexeme FROM unnest(to_tsvector('recall', t.term)) LIMIT 1), t.term)
			FROM unnest($1::text[]) WITH ORDINALITY AS t(term, i) ORDER BY t.i)`, terms).Scan(&lexemes); err != nil {
			return nil, err
		}
		n = st.rows
		for _, l := range lexemes {
			f, ok := st.freq[l]
			if !ok {
				f = st.rare
			}
			dfs = append(dfs, f*n)
		}
	} else if n, dfs, err = s.countTerms(ctx, terms); err != nil {
		return nil, err
	}
	common := max(n/commonShare, minCommon)
	var out []weightedTerm
	least := 0
	for i, t := range terms {
		if dfs[i] < dfs[least] {
			least = i
		}
		if dfs[i] < common {
			out = append(out, weightedTerm{t, dfs[i], idf(n, dfs[i])})
		}
	}
	if len(out) == 0 { // every term is common: the least common one ranks as well as all
		out = []weightedTerm{{terms[least], dfs[least], idf(n, dfs[least])}}
	}
	return out, nil
}

// countTerms counts the namespace's memories and those matching each term
// (counting stops once a term is common).
func (s *MemoryService) countTerms(ctx context.Context, terms []string) (float64, []float64, error) {
	var n int64
	if err := s.db.pool.QueryRow(ctx, `SELECT count(*) FROM memories WHERE namespace = $1`, s.db.Namespace).Scan(&n); err != nil {
		return 0, nil, err
	}
	var counts []float64
	err := s.db.pool.QueryRow(ctx, `SELECT array(SELECT (SELECT count(*) FROM (SELECT 1 FROM memories
			WHERE namespace = $1 AND fts @@ to_tsquery('recall', t.term) LIMIT $3) hits)::float8
		FROM unnest($2::text[]) WITH ORDINALITY AS t(term, i) ORDER BY t.i)`,
		s.db.Namespace, terms, max(n/commonShare, minCommon)).Scan(&counts)
	return float64(n), counts, err
}

// idf is BM25's inverse document frequency of a term found in df of n
// documents; always positive.
func idf(n, df float64) float64 {
	return math.Log(1 + (max(n-df, 0)+0.5)/(df+0.5))
}

// scoreRow scans a memory row followed by its score.
type scoreRow struct {
	row   pgx.Row
	score *float64
}

func (r scoreRow) Scan(dest ...any) error { return r.row.Scan(append(dest, r.score)...) }
