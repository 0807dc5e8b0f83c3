package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// rankWeights are ts_rank's weights for the labels D, C, B and A: content,
// (unused), tags and title, in the 1 : 4 : 10 of SQLite's bm25 weights.
const rankWeights = `'{0.1, 0, 0.4, 1.0}'`

// rankNormalization divides the rank by 1 + the log of the document's
// length, so a long memory does not win on repetition alone (BM25's
// length normalisation, roughly).
const rankNormalization = 1

// Search ranks the namespace's memories by full-text relevance to the
// query over title, tags and content, with the query language and filters
// of the SQLite store. Like SQLite's, it leaves Snippet empty.
func (s *MemoryService) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	w := &where{args: []any{s.db.Namespace}}
	if err := w.memories(q.Filter); err != nil {
		return nil, err
	}
	text := tsQueryText(q.Text)
	if text == "" {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	query := w.arg(text)
	sql := fmt.Sprintf(`SELECT %s, ts_rank(%s, m.fts, to_tsquery('recall', %s), %d) AS score
		FROM memories m WHERE %s AND m.fts @@ to_tsquery('recall', %s)
		ORDER BY score DESC, m.id LIMIT %s`, memoryColumns, rankWeights, query, rankNormalization, w.sql(), query, w.arg(limit))
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

// scoreRow scans a memory row followed by its score.
type scoreRow struct {
	row   pgx.Row
	score *float64
}

func (r scoreRow) Scan(dest ...any) error { return r.row.Scan(append(dest, r.score)...) }
