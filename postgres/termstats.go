package postgres

import (
	"context"
	"sync"
	"time"
)

// statsTTL is how long the namespace's size is reused before it is
// counted again: it moves slowly, and counting 100,000 rows takes a few
// milliseconds, too many to spend on every search.
const statsTTL = time.Minute

// termStats caches the number of memories in the namespace (the N of a
// term's IDF and of the threshold that makes a term common), their mean
// length in distinct words (BM25's avgdl, over the newest avgSample
// memories) and the planner's statistics of the most common words. A
// small store
// is counted again on every search (that costs nothing, and a store that
// is filling must not be taken for an empty one for a minute).
type termStats struct {
	mu   sync.Mutex
	at   time.Time
	docs float64
	avg  float64
	// common holds the share of rows holding each of the lexemes
	// PostgreSQL's statistics of the tsvector column list (ANALYZE
	// samples the most common ones): those are not counted (see
	// planTerms).
	common map[string]float64
}

// avgSample is how many of the newest memories the mean length is taken
// over: enough for a mean, and cheap to read through the seq index.
const avgSample = 1000

// snapshot is what termStats knows, as of one read.
type snapshot struct {
	docs, avgLen float64
	common       map[string]float64 // nil before the table is analyzed
}

// get returns the statistics, read at most statsTTL ago.
func (s *termStats) get(ctx context.Context, q querier, ns string) (snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.docs >= minCommon*commonShare && time.Since(s.at) < statsTTL {
		return snapshot{s.docs, s.avg, s.common}, nil
	}
	var n int64
	var avg float64
	var elems []string
	var freqs []float32
	if err := q.QueryRow(ctx, `SELECT count(*), coalesce((SELECT avg(length(fts)) FROM (SELECT fts FROM memories
			WHERE namespace = $1 ORDER BY seq DESC LIMIT $2) newest), 0)::float8,
			coalesce((SELECT most_common_elems::text::text[] FROM pg_stats
				WHERE schemaname = current_schema() AND tablename = 'memories' AND attname = 'fts'), '{}'),
			coalesce((SELECT most_common_elem_freqs FROM pg_stats
				WHERE schemaname = current_schema() AND tablename = 'memories' AND attname = 'fts'), '{}')
		FROM memories WHERE namespace = $1`, ns, avgSample).Scan(&n, &avg, &elems, &freqs); err != nil {
		return snapshot{}, err
	}
	s.at, s.docs, s.avg, s.common = time.Now(), float64(n), max(avg, 1), nil
	if len(elems) > 0 && len(freqs) >= len(elems) {
		s.common = make(map[string]float64, len(elems))
		for i, e := range elems {
			s.common[e] = float64(freqs[i])
		}
	}
	return snapshot{s.docs, s.avg, s.common}, nil
}
