package sqlite

import (
	"context"
	"fmt"

	"github.com/recall-mem/recall"
)

// bm25Weights weigh the FTS columns title, content, tags.
const bm25Weights = "10.0, 1.0, 4.0"

// Search ranks memories by BM25 over title, content and tags.
func (s *MemoryService) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	match := FTSQuery(q.Text)
	if match == "" {
		return nil, nil
	}
	where, args, err := whereMemories(q.Filter)
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+memoryColumns+`, bm25(memories_fts, `+bm25Weights+`) AS rank,
		snippet(memories_fts, 1, '', '', '…', 24)
		FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
		WHERE memories_fts MATCH ? AND `+where+` ORDER BY rank LIMIT ?`,
		append(append([]any{match}, args...), limit)...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var hits []*recall.SearchHit
	for rows.Next() {
		var rank float64
		var snippet string
		m, err := scanMemory(scanTail{rows, []any{&rank, &snippet}})
		if err != nil {
			return nil, err
		}
		h := &recall.SearchHit{Memory: m, Score: -rank, Snippet: snippet}
		if q.Explain {
			h.Explain = &recall.HitExplain{BM25: -rank, BM25Rank: len(hits) + 1, Fused: -rank}
		}
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// scanTail scans a memory row followed by extra columns.
type scanTail struct {
	row   scanner
	extra []any
}

func (s scanTail) Scan(dest ...any) error { return s.row.Scan(append(dest, s.extra...)...) }
