package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

// bm25Weights weigh the FTS columns title, content, tags.
const bm25Weights = "10.0, 1.0, 4.0"

// Search ranks memories by BM25 over title, content and tags. It leaves
// Snippet empty: the ranker picks the best passage of the hits it keeps
// (an FTS5 snippet costs a full-text query per row).
//
// FTS5 scores every row that matches; the ranking is done on the index
// alone (rowid and score), and only the best rows are joined with the
// memories for filtering. Joining every match instead costs several times
// more on a large store. When the filter rejects too many of the best rows, the window
// grows until enough pass or the matches run out.
func (s *MemoryService) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	match, err := s.matchExpr(ctx, q.Text)
	if err != nil || match.expr == "" {
		return nil, err
	}
	where, args, err := whereMemories(q.Filter)
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	// Each row of the window is loaded whole, so it is only a little wider
	// than the limit: most memories pass the usual filters, and when too
	// many do not, the window grows.
	first := true
	for window := limit + limit/4 + 8; ; window *= 4 {
		w, err := s.searchWindow(ctx, match, where, args, window, limit, first, q.Explain)
		if err != nil || w.done {
			return w.hits, err
		}
		first = false
	}
}

// windowHits is what searchWindow found: the hits, whether they are the
// search's (limit of them, or the window held every match), and, for
// tests, the rows of each load of memories, in order (the hits are the
// last one's), and the expressions it scored.
type windowHits struct {
	hits  []*recall.SearchHit
	done  bool
	loads []int
	exprs []string
}

// searchWindow ranks the best window matches and returns those of them
// that pass the filter (at most limit).
//
// The hits are the first limit of the window's passing rows by score,
// then id. When the limit-th row of the window and the rows tied with it
// end before the window does, the rows after them score lower and cannot
// be hits unless fewer than limit of those before pass: so, in the first
// window (limitFirst), these are scored exactly and loaded first (about
// limit rows, not the window's). When fewer pass, the whole window is
// scored and loaded again in one statement, so that every hit comes from
// one snapshot of the memories, as a single load gives. A larger window
// comes only after one whose rows did not give limit hits: its first
// rows would not either, unless the index changed, so it is loaded whole.
func (s *MemoryService) searchWindow(ctx context.Context, match ftsMatch, where string, args []any, window, limit int, limitFirst, explain bool) (windowHits, error) {
	r := newRanking(match, window, limit)
	var hits []*recall.SearchHit
	var loads []int
	load := func(rows []rankedRow) (err error) {
		hits, err = s.loadHits(ctx, rows, where, args)
		loads = append(loads, len(rows))
		return err
	}
	cut := -1 // the rows loaded first, when they were
	if limitFirst {
		if err := s.score(ctx, r, limit); err != nil {
			return windowHits{}, err
		}
		// The limit-th row is exact (score), and so are the rows tied with it.
		if c := tiedCut(r.rows, limit); c < window {
			if err := load(r.rows[:c]); err != nil {
				return windowHits{}, err
			}
			cut = c
		}
	}
	// The whole window, unless the limit's rows gave the limit or were
	// every match.
	if cut < 0 || len(hits) < limit && !(r.all && cut == len(r.rows)) {
		if err := s.score(ctx, r, window); err != nil {
			return windowHits{}, err
		}
		if err := load(r.rows); err != nil {
			return windowHits{}, err
		}
	}
	done := len(hits) >= limit || len(r.rows) < window
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Memory.ID < hits[j].Memory.ID
	})
	hits = hits[:min(len(hits), limit)]
	if explain {
		for i, h := range hits {
			h.Explain = &recall.HitExplain{BM25: h.Score, BM25Rank: i + 1, Fused: h.Score}
		}
	}
	return windowHits{hits: hits, done: done, loads: loads, exprs: r.exprs}, nil
}

// tiedCut is how many of the ranked rows come before the first that
// ranks below the limit-th (len(rows) when there are not limit rows or
// no row ranks below it).
func tiedCut(rows []rankedRow, limit int) int {
	if len(rows) < limit {
		return len(rows)
	}
	cut := limit
	for cut < len(rows) && rows[cut].rank == rows[limit-1].rank {
		cut++
	}
	return cut
}

// loadHits loads the ranked rows that pass the filter, each with its
// score, in no particular order.
func (s *MemoryService) loadHits(ctx context.Context, ranked []rankedRow, where string, args []any) ([]*recall.SearchHit, error) {
	if len(ranked) == 0 {
		return nil, nil
	}
	score := make(map[int64]float64, len(ranked))
	seqs := make([]int64, len(ranked))
	for i, r := range ranked {
		score[r.seq] = -r.rank
		seqs[i] = r.seq
	}
	rows, err := s.db.readQuery(ctx, `SELECT `+memoryColumns+`, m.seq
		FROM memories m WHERE m.seq IN `+inList+` AND `+where, append([]any{jsonInts(seqs)}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var hits []*recall.SearchHit
	var seq int64
	for rows.Next() {
		m, err := scanMemoryWith(rows, &seq)
		if err != nil {
			return nil, err
		}
		hits = append(hits, &recall.SearchHit{Memory: m, Score: score[seq]})
	}
	return hits, rows.Err()
}

// boundLimit is a LIMIT bound at each run. SQLite reads a bare `LIMIT ?`
// from the value bound when it prepares the statement (to plan for that
// many rows) and so prepares it again whenever a value is bound: every
// run of a statement kept for reuse, both full-text statements of every
// search. An expression is read when it runs.
const boundLimit = "CAST(? AS INTEGER)"

// commonShare is the share of documents above which a query term is
// "common": its IDF is near zero, so it adds almost nothing to BM25, yet
// scoring its long doclist dominates query time (about 1.4 µs per matching
// row against 0.1 µs to merely count one).
const commonShare = 10

// maxScored bounds the rows one query scores, so that a search costs about
// the same on any store: at 1.4 µs a row, 6,000 rows are under 10 ms.
const maxScored = 6000

// ftsMatch is what a search asks FTS5: an expression, and the smallest
// rowid to score (0 for all). When matchExpr counted them, it also holds
// the terms the expression ORs, with the rows each matches, the rows of
// the index, and its structure and averages records (the index they were
// counted in), which let rankWindow prune.
type ftsMatch struct {
	expr     string
	from     int64
	terms    []string
	counts   []int
	rows     int64
	index    []byte
	averages []byte
	first    int // tests: the words to score first (0: as essential estimates)
}

// matchExpr builds the FTS5 expression for a query. On a store of 2,000
// rows or more it keeps the work bounded:
//
//   - common terms are left out while a rarer term remains (else the
//     least common one is kept);
//   - the rare terms are kept rarest first, while the rows they match add
//     up to maxScored: rare terms carry the highest IDF, so the documents
//     that match them are the ones that rank;
//   - when even the rarest kept term matches more rows than that, only
//     its newest maxScored rows are scored (the newest memories are the
//     likelier answer when a term says little).
//
// Counting a term's matches stops at the common threshold, so the checks
// cost little even for frequent terms.
func (s *MemoryService) matchExpr(ctx context.Context, text string) (ftsMatch, error) {
	terms := ftsquery.Terms(text)
	if len(terms) == 0 {
		return ftsMatch{}, nil
	}
	var docs int
	var structure, averages []byte
	if err := s.db.readQueryRow(ctx, `SELECT COALESCE(MAX(seq), 0),
		(SELECT block FROM memories_fts_data WHERE id = 10),
		(SELECT block FROM memories_fts_data WHERE id = 1) FROM memories`).Scan(&docs, &structure, &averages); err != nil {
		return ftsMatch{}, fmt.Errorf("search: %w", err)
	}
	known := s.db.terms.at(strconv.AppendInt(structure, int64(docs), 10))
	limit := docs / commonShare
	if limit < 200 {
		return ftsMatch{expr: quoteTerms(terms)}, nil
	}
	type counted struct {
		term string
		n    int
	}
	budget := maxScored
	if s.maxScored > 0 {
		budget = s.maxScored
	}
	// A term matching more than budget rows is kept only when no term
	// matches fewer, so counting can stop there too.
	limit = min(limit, budget+1)
	var rare []counted
	least := counted{terms[0], limit + 1}
	count, err := s.db.readStmt(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT `+boundLimit+`)`)
	if err != nil {
		return ftsMatch{}, fmt.Errorf("search: %w", err)
	}
	for _, t := range terms {
		n, ok := known.count(t, limit)
		if !ok {
			if err := count.QueryRowContext(ctx, quoteTerms([]string{t}), limit).Scan(&n); err != nil {
				return ftsMatch{}, fmt.Errorf("search: %w", err)
			}
			known.setCount(t, limit, n)
		}
		if n < limit {
			rare = append(rare, counted{t, n})
		}
		if n < least.n {
			least = counted{t, n}
		}
	}
	if len(rare) == 0 { // every term is common: the least common one ranks as well as all
		rare = []counted{least}
	}
	sort.SliceStable(rare, func(i, j int) bool { return rare[i].n < rare[j].n })
	kept, counts, rows := []string{rare[0].term}, []int{rare[0].n}, rare[0].n
	for _, c := range rare[1:] {
		if rows+c.n > budget {
			break
		}
		kept, counts, rows = append(kept, c.term), append(counts, c.n), rows+c.n
	}
	m := ftsMatch{expr: quoteTerms(kept), terms: kept, counts: counts, index: structure, averages: averages}
	m.rows, _ = ftsRowCount(averages)
	if rows > budget {
		if from, ok := known.start(m.expr, budget); ok {
			m.from = from
			return m, nil
		}
		// The offset is written, not bound (see SearchRollups); the
		// budget is a constant of the store.
		err := s.db.readQueryRow(ctx, `SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET `+strconv.Itoa(budget-1),
			m.expr).Scan(&m.from)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return ftsMatch{}, fmt.Errorf("search: %w", err)
		}
		known.setStart(m.expr, budget, m.from)
	}
	return m, nil
}

// scanTail scans a memory row followed by extra columns.
type scanTail struct {
	row   scanner
	extra []any
}

func (s scanTail) Scan(dest ...any) error { return s.row.Scan(append(dest, s.extra...)...) }
