package postgres

import (
	"context"
	"encoding/json"
	"errors"
)

// The planner's statistics of a namespace lag behind a bulk load: until
// autovacuum's next ANALYZE (a minute or more away), a namespace that is
// new, or much larger than when last analyzed, is believed to hold a row
// or a few. Searches then pick plans fit for that: the vector search
// joined memories to their vectors in a nested loop of every pair, 1.9 s
// at 2,000 memories against 21 ms once analyzed. So after an import, the
// store compares the planner's estimate for the namespace with what this
// process has added since it last analyzed, and runs ANALYZE when the
// estimate is below half of that: a few times as a namespace grows by
// orders of magnitude, never for an import into a namespace it already
// knows well.

// analyzeMin is how many memories this process adds to the namespace
// before it asks the planner what it believes.
const analyzeMin = 500

// analyzedTables are the tables whose statistics a bulk load changes.
const analyzedTables = "memories, memory_versions, memory_vectors"

// added counts n memories added to the namespace and refreshes the
// planner's statistics when they lag (see above). It is best effort: the
// writes have committed, and a role that does not own the tables gets a
// warning from ANALYZE, not an error.
func (db *DB) added(ctx context.Context, n int) {
	db.analyzeMu.Lock()
	defer db.analyzeMu.Unlock()
	db.sinceAnalyze += n
	if db.sinceAnalyze < analyzeMin {
		return
	}
	est, err := db.estimateRows(ctx)
	if err != nil || est >= float64(db.sinceAnalyze)/2 {
		return
	}
	if _, err := db.pool.Exec(ctx, `ANALYZE `+analyzedTables); err == nil {
		db.sinceAnalyze = 0
	}
}

// estimateRows is the planner's estimate of the namespace's memories.
func (db *DB) estimateRows(ctx context.Context) (float64, error) {
	var plan string
	if err := db.pool.QueryRow(ctx, `EXPLAIN (FORMAT JSON) SELECT 1 FROM memories WHERE namespace = $1`, db.Namespace).Scan(&plan); err != nil {
		return 0, err
	}
	var out []struct {
		Plan struct {
			Rows float64 `json:"Plan Rows"`
		} `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(plan), &out); err != nil {
		return 0, err
	}
	if len(out) == 0 {
		return 0, errors.New("EXPLAIN returned no plan")
	}
	return out[0].Plan.Rows, nil
}
