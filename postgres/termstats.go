package postgres

import (
	"context"
	"sync"
	"time"
)

// statsTTL is how long term statistics are reused before they are read
// again: they move slowly, and ANALYZE refreshes them only now and then.
const statsTTL = time.Minute

// termStats are PostgreSQL's own statistics of the memories' tsvector
// column (what ANALYZE samples for the planner): the share of rows
// holding each frequent lexeme, and a bound for all others. They give a
// term's IDF without counting its rows on every search. They cover the
// table, not one namespace: for IDF, how rare a word is in the shared
// database is a close enough estimate.
type termStats struct {
	mu   sync.Mutex
	at   time.Time
	ok   bool               // the column has been analyzed
	freq map[string]float64 // share of rows holding the lexeme
	rare float64            // the share assumed for a lexeme not in freq
	rows float64            // rows in the table, as of the last ANALYZE
}

// get returns the statistics, reading them when they are older than
// statsTTL; ok is false until the table has been analyzed.
func (s *termStats) get(ctx context.Context, q querier) (*termStats, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.at) < statsTTL {
		return s, nil
	}
	var elems []string
	var freqs []float32
	var rows float64
	err := q.QueryRow(ctx, `SELECT coalesce(s.most_common_elems::text::text[], '{}'), coalesce(s.most_common_elem_freqs, '{}'),
			greatest(c.reltuples, 0)
		FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'memories' AND s.attname = 'fts'
		WHERE c.oid = 'memories'::regclass`).Scan(&elems, &freqs, &rows)
	if err != nil {
		return nil, err
	}
	s.at, s.rows, s.ok = time.Now(), rows, len(elems) > 0 && len(freqs) >= len(elems)
	s.freq = make(map[string]float64, len(elems))
	s.rare = 1
	for i, e := range elems {
		s.freq[e] = float64(freqs[i])
		s.rare = min(s.rare, float64(freqs[i]))
	}
	// As the planner does: a lexeme missing from the list is rarer than
	// the rarest listed; half of that is its estimate.
	s.rare /= 2
	return s, nil
}
