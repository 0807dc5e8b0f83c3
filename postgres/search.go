package postgres

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

// The score is FTS5's BM25, as SQLite ranks: for each query term, its
// IDF times k1+1 times the term's weighted frequency f in the memory over
// f + k1*(1 - b + b*dl/avgdl), summed. f counts an occurrence in the
// title 10, in the tags 4 and in the content 1 (SQLite's column weights),
// and saturates: a title match is worth about twice a content match, not
// ten times. ts_rank (without normalisation) gives f: for one occurrence
// it is the label's weight over ζ(2), and further occurrences add less
// than FTS5 counts them (1/4, 1/9, ... of theirs). dl is the memory's
// number of distinct words (length of its tsvector), avgdl their mean.

// rankWeights are ts_rank's weights for the labels D, C, B and A: content,
// (unused), tags and title. ts_rank refuses weights above 1, so they are
// SQLite's 1 : 4 : 10 divided by 10, and rankScale restores them.
const rankWeights = `'{0.1, 0, 0.4, 1.0}'`

// rankScale turns ts_rank into the weighted term frequency: times ζ(2)
// (ts_rank divides by it) and 10 (see rankWeights).
const rankScale = 10 * math.Pi * math.Pi / 6

// rankNormalization divides a rollup's ts_rank by 1 + the log of its
// length (see SearchRollups), so a long summary does not win on
// repetition alone.
const rankNormalization = 1

// bm25K1 and bm25B are FTS5's BM25 parameters.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// commonShare: a term found in more than 1/commonShare of the namespace's
// memories is "common" and left out of the query while a rarer term
// remains, as on SQLite: its IDF is near zero, yet it would make every
// search rank most of the store.
const commonShare = 10

// minCommon is the fewest matches that make a term common, so that a small
// store (under minCommon*commonShare memories) keeps every term and ranks
// every match, as on SQLite.
const minCommon = 200

// maxScored bounds the rows one search ranks, so that a query of common
// words costs about the same on any store. It is SQLite's bound, and the
// terms are chosen within it as SQLite chooses them (see planTerms): the
// two stores rank the same candidates.
const maxScored = 6000

// Search ranks the namespace's memories for the query over title, tags
// and content, with the query language, filters and score (FTS5's BM25,
// see above) of the SQLite store. Like SQLite's, it leaves Snippet empty.
func (s *MemoryService) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	w := newWhere("m", s.db.Namespace)
	if err := w.memories(q.Filter); err != nil {
		return nil, err
	}
	terms := ftsquery.Terms(q.Text)
	if len(terms) == 0 {
		return nil, nil
	}
	plan, err := s.planTerms(ctx, terms)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	if len(plan.terms) == 0 {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	var match, freq, score []string
	for i, t := range plan.terms {
		match = append(match, "("+t.query+")")
		// The term's tsquery is a parameter of type tsquery: parsed once,
		// where to_tsquery in the statement would stem it again for
		// every row ranked.
		freq = append(freq, fmt.Sprintf("%g * ts_rank(%s, m.fts, %s) AS f%d", rankScale, rankWeights, w.arg(t.query), i))
		score = append(score, fmt.Sprintf("%s::float8 * f.f%d / (f.f%[2]d + f.norm)", w.arg(t.idf*(bm25K1+1)), i))
	}
	// What varies from one query to the next (the terms, their IDF, the
	// mean length) is a parameter: the statement's text depends only on
	// the number of terms and the filter, so the driver prepares it once
	// and the server plans it once (planning took 4 ms a query).
	norm := fmt.Sprintf("%g * (1 - %g + %g * length(m.fts) / %s::float8) AS norm", bm25K1, bm25B, bm25B, w.arg(plan.avgLen))
	// Ranking reads only ids and the tsvector; the memories themselves
	// are loaded for the hits alone, so sorts never carry their content.
	from := "memories m"
	cond := fmt.Sprintf("%s AND m.fts @@ %s::tsquery", w.sql(), w.arg(strings.Join(match, " | ")))
	if plan.newest {
		from = fmt.Sprintf("(SELECT m.id, m.fts FROM memories m WHERE %s ORDER BY m.seq DESC LIMIT %d) m", cond, maxScored)
		cond = "true"
	}
	// OFFSET 0 keeps the frequencies a subquery of their own: merged into
	// the score, each ts_rank would run twice.
	sql := fmt.Sprintf(`WITH ranked AS (SELECT f.id, %s AS score
			FROM (SELECT m.id, %s, %s FROM %s WHERE %s OFFSET 0) f ORDER BY score DESC, f.id LIMIT %s)
		SELECT %s, r.score FROM ranked r JOIN memories m ON m.namespace = $1 AND m.id = r.id
		ORDER BY r.score DESC, m.id`, strings.Join(score, " + "), strings.Join(freq, ", "), norm, from, cond, w.arg(limit), memoryColumns)
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

// weightedTerm is a query term as the index holds it and its inverse
// document frequency.
type weightedTerm struct {
	query string  // the term's tsquery, as text
	df    float64 // how many memories of the namespace hold it (at most the cap counted to)
	idf   float64
}

// termPlan is what a search ranks: the terms kept, and whether only the
// newest maxScored of their matches are ranked.
type termPlan struct {
	terms  []weightedTerm
	newest bool
	avgLen float64 // the mean number of distinct words of a memory
}

// planTerms chooses the terms a search ranks, as SQLite's matchExpr does,
// so that both stores rank the same candidates. On a store of
// minCommon*commonShare memories or more:
//
//   - common terms are left out while a rarer term remains (else the
//     least common one is kept);
//   - the rare terms are kept rarest first, while the memories they match
//     add up to maxScored: rare terms carry the highest IDF, so the
//     memories that match them are the ones that rank;
//   - when even the rarest kept term matches more than that, or every
//     term is common, only the newest maxScored matches are ranked.
//
// A smaller store keeps every term and ranks every match. Each term's
// matches are counted exactly (the count stops at the common threshold),
// which BM25's IDF needs too, except those of the words the planner's
// statistics list as the most common: their count is estimated.
func (s *MemoryService) planTerms(ctx context.Context, terms []string) (termPlan, error) {
	st, err := s.db.stats.get(ctx, s.db.pool, s.db.Namespace)
	if err != nil {
		return termPlan{}, err
	}
	n, avgLen := st.docs, st.avgLen
	small := n < minCommon*commonShare
	limit := min(math.Floor(n/commonShare), maxScored+1)
	if small {
		limit = n + 1 // counted in full: the IDF needs it
	}
	// The words the planner's statistics list as common are not counted:
	// counting one to 6,000 reads as many rows (160 ms for a question of
	// seven words at 100,000 memories). Their share of the sampled rows
	// (of every namespace) times the namespace's size stands for their
	// count; the others are rarer than any listed, so counting them is
	// cheap, and exact as SQLite's.
	var queries, lexemes []string
	err = s.db.pool.QueryRow(ctx, `SELECT array_agg(tq.q::text ORDER BY t.i), array_agg(coalesce(tq.lexeme, '') ORDER BY t.i)
		FROM unnest($1::text[]) WITH ORDINALITY AS t(term, i)
		CROSS JOIN LATERAL (SELECT to_tsquery('recall', t.term) AS q,
			(SELECT lexeme FROM unnest(to_tsvector('recall', t.term)) LIMIT 1) AS lexeme) tq`, terms).Scan(&queries, &lexemes)
	if err != nil {
		return termPlan{}, err
	}
	counts := make([]float64, len(queries))
	var uncounted []string
	var at []int // where each uncounted term's count goes
	for i, q := range queries {
		if f, ok := st.common[lexemes[i]]; ok && !small {
			counts[i] = min(max(math.Round(f*n), 1), limit)
		} else if q != "" {
			uncounted, at = append(uncounted, q), append(at, i)
		}
	}
	if len(uncounted) > 0 {
		var got []float64
		err = s.db.pool.QueryRow(ctx, `SELECT array_agg((SELECT count(*) FROM (SELECT 1 FROM memories
				WHERE namespace = $1 AND fts @@ t.q::tsquery LIMIT $3) hits)::float8 ORDER BY t.i)
			FROM unnest($2::text[]) WITH ORDINALITY AS t(q, i)`, s.db.Namespace, uncounted, int64(limit)).Scan(&got)
		if err != nil {
			return termPlan{}, err
		}
		for j, i := range at {
			counts[i] = got[j]
		}
	}
	var all []weightedTerm
	for i, q := range queries {
		if q == "" { // nothing of the term is indexed: it matches nothing
			continue
		}
		all = append(all, weightedTerm{query: q, df: counts[i], idf: idf(n, counts[i])})
	}
	if small || len(all) == 0 {
		return termPlan{terms: all, avgLen: avgLen}, nil
	}
	var rare []weightedTerm
	least := all[0]
	for _, t := range all {
		if t.df < limit {
			rare = append(rare, t)
		}
		if t.df < least.df {
			least = t
		}
	}
	if len(rare) == 0 { // every term is common: the least common one ranks as well as all
		rare = []weightedTerm{least}
	}
	sort.SliceStable(rare, func(i, j int) bool { return rare[i].df < rare[j].df })
	kept, rows := rare[:1], rare[0].df
	for _, t := range rare[1:] {
		if rows+t.df > maxScored {
			break
		}
		kept, rows = append(kept, t), rows+t.df
	}
	// A common term's count stopped at limit: it may match far more than
	// maxScored. SQLite ranks all its matches when limit is under
	// maxScored (a store of fewer than 60,000 memories); here they are
	// bounded on every store.
	return termPlan{terms: kept, newest: rows > maxScored || rare[0].df >= limit, avgLen: avgLen}, nil
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
