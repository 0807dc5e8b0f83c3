package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sync"
)

// bm25()'s IDF is log((N − hits + 0.5) / (hits + 0.5)) with C's log,
// which Go's math.Log does not match to the bit for some arguments. The
// scorer takes the log from SQLite's ln() over the same double, and
// remembers it by argument: a term's row count came with a statement
// of an fts5vocab table of its own (a cursor that prepares a statement
// as it opens, a seek in the index, a walk of the term's every row),
// and is now the rows of its instances, read anyway.

// logs remembers ln() by argument (NaN: ln() gave NULL).
var logs struct {
	mu sync.Mutex
	m  map[float64]float64
}

// maxLogs bounds the logs remembered; past it they start over.
const maxLogs = 1 << 14

// termIDF is the IDF bm25() gives a term that hits of n rows have,
// floored at 1e-6 as bm25() floors it.
func termIDF(ctx context.Context, db *DB, n, hits int64) (float64, error) {
	// Without a multiplication: nothing to fuse (.ci/run checks).
	x := (float64(n-hits) + 0.5) / (float64(hits) + 0.5)
	logs.mu.Lock()
	v, ok := logs.m[x]
	logs.mu.Unlock()
	if !ok {
		st, err := db.readStmt(ctx, `SELECT ln(?)`)
		if err != nil {
			return 0, fmt.Errorf("search: %w", err)
		}
		var l sql.NullFloat64
		if err := st.QueryRowContext(ctx, x).Scan(&l); err != nil {
			return 0, fmt.Errorf("search: %w", err)
		}
		v = l.Float64
		if !l.Valid {
			v = math.NaN()
		}
		logs.mu.Lock()
		if logs.m == nil || len(logs.m) >= maxLogs {
			logs.m = map[float64]float64{}
		}
		logs.m[x] = v
		logs.mu.Unlock()
	}
	if !(v > 0) { // NULL (NaN) or not positive
		return 1e-6, nil
	}
	return v, nil
}
