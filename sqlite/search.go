package sqlite

import (
	"context"
	"fmt"

	"github.com/recall-mem/recall"
)

// bm25Rank weighs the FTS columns title, content, tags.
const bm25Rank = "bm25(10.0, 1.0, 4.0)"

// Search ranks memories by BM25 over title, content and tags.
func (s *MemoryService) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	hits, err := s.BM25(ctx, q.Text, q.Filter, limit)
	if err != nil {
		return nil, err
	}
	for i, h := range hits {
		if q.Explain {
			h.Explain = &recall.HitExplain{BM25: h.Score, BM25Rank: i + 1, Fused: h.Score}
		}
	}
	return hits, nil
}

// BM25 returns up to limit memories matching filter, best BM25 score first,
// each with a snippet of its best-matching content. FTS5 ranks the matches
// on its own (ORDER BY rank), so only the top candidates are joined with
// their rows and filtered; if the filter rejects too many, the candidate
// window widens until it is enough or every match has been seen.
func (s *MemoryService) BM25(ctx context.Context, text string, f recall.MemoryFilter, limit int) ([]*recall.SearchHit, error) {
	if limit <= 0 {
		return nil, nil
	}
	match, err := s.matchExpr(ctx, text)
	if err != nil || match == "" {
		return nil, err
	}
	where, args, err := whereMemories(f)
	if err != nil {
		return nil, err
	}
	for window := max(limit*4, 50); ; window *= 4 {
		hits, seen, err := s.bm25Window(ctx, match, where, args, limit, window)
		if err != nil || len(hits) >= limit || seen < window {
			return hits, err
		}
	}
}

func (s *MemoryService) bm25Window(ctx context.Context, match, where string, args []any, limit, window int) ([]*recall.SearchHit, int, error) {
	rows, err := s.db.read.QueryContext(ctx, `WITH c AS (
			SELECT rowid, rank FROM memories_fts
			WHERE memories_fts MATCH ? AND rank MATCH '`+bm25Rank+`' ORDER BY rank LIMIT ?)
		SELECT `+memoryColumns+`, c.rank, (SELECT COUNT(*) FROM c)
		FROM c JOIN memories m ON m.seq = c.rowid
		WHERE `+where+` ORDER BY c.rank LIMIT ?`,
		append(append([]any{match, window}, args...), limit)...)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var hits []*recall.SearchHit
	seen := 0
	for rows.Next() {
		var rank float64
		m, err := scanMemory(scanTail{rows, []any{&rank, &seen}})
		if err != nil {
			return nil, 0, err
		}
		hits = append(hits, &recall.SearchHit{Memory: m, Score: -rank})
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	rows.Close()
	for _, h := range hits {
		if err := s.db.read.QueryRowContext(ctx, `SELECT snippet(memories_fts, 1, '', '', '…', 24) FROM memories_fts
			WHERE memories_fts MATCH ? AND rowid = (SELECT seq FROM memories WHERE id = ?)`, match, h.Memory.ID).Scan(&h.Snippet); err != nil {
			return nil, 0, fmt.Errorf("snippet: %w", err)
		}
	}
	return hits, seen, nil
}

// commonShare is the share of documents above which a query term is
// "common": its IDF is near zero, so it adds almost nothing to BM25, yet
// scoring its long doclist dominates query time (about 2 µs per matching
// row against 0.1 µs to merely count one).
const commonShare = 10

// matchExpr builds the FTS5 expression for a query, leaving out common
// terms while at least one rarer term remains (else keeping the least
// common). Counting a term's matches
// stops at the threshold, so the check costs little even for frequent
// terms.
func (s *MemoryService) matchExpr(ctx context.Context, text string) (string, error) {
	terms := QueryTerms(text)
	if len(terms) < 2 {
		return quoteTerms(terms), nil
	}
	var docs int
	if err := s.db.read.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM memories`).Scan(&docs); err != nil {
		return "", fmt.Errorf("search: %w", err)
	}
	cap := docs / commonShare
	if cap < 200 {
		return quoteTerms(terms), nil
	}
	var rare []string
	least, leastN := terms[0], cap+1
	for _, t := range terms {
		var n int
		if err := s.db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)`,
			quoteTerms([]string{t}), cap).Scan(&n); err != nil {
			return "", fmt.Errorf("search: %w", err)
		}
		if n < cap {
			rare = append(rare, t)
		}
		if n < leastN {
			least, leastN = t, n
		}
	}
	if len(rare) == 0 { // every term is common: the least common one ranks as well as all
		return quoteTerms([]string{least}), nil
	}
	return quoteTerms(rare), nil
}

// scanTail scans a memory row followed by extra columns.
type scanTail struct {
	row   scanner
	extra []any
}

func (s scanTail) Scan(dest ...any) error { return s.row.Scan(append(dest, s.extra...)...) }
