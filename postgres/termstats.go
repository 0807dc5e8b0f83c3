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
// term's IDF and of the threshold that makes a term common) and their
// mean length in distinct words (BM25's avgdl, over the newest
// avgSample memories). A small store
// is counted again on every search (that costs nothing, and a store that
// is filling must not be taken for an empty one for a minute).
type termStats struct {
	mu   sync.Mutex
	at   time.Time
	docs float64
	avg  float64
}

// avgSample is how many of the newest memories the mean length is taken
// over: enough for a mean, and cheap to read through the seq index.
const avgSample = 1000

// size returns the namespace's number of memories and their mean length,
// read at most statsTTL ago.
func (s *termStats) size(ctx context.Context, q querier, ns string) (docs, avgLen float64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.docs >= minCommon*commonShare && time.Since(s.at) < statsTTL {
		return s.docs, s.avg, nil
	}
	var n int64
	var avg float64
	if err := q.QueryRow(ctx, `SELECT count(*), coalesce((SELECT avg(length(fts)) FROM (SELECT fts FROM memories
			WHERE namespace = $1 ORDER BY seq DESC LIMIT $2) newest), 0)::float8
		FROM memories WHERE namespace = $1`, ns, avgSample).Scan(&n, &avg); err != nil {
		return 0, 0, err
	}
	s.at, s.docs, s.avg = time.Now(), float64(n), max(avg, 1)
	return s.docs, s.avg, nil
}
