package sqlite

import "context"

// Exec runs one statement on the writer, for tests that stand in for
// tables other features add.
func (db *DB) Exec(ctx context.Context, query string, args ...any) error {
	_, err := db.write.ExecContext(ctx, query, args...)
	return err
}

// Strings returns the first column of every row of a query.
func (db *DB) Strings(ctx context.Context, query string, args ...any) ([]string, error) {
	return queryStrings(ctx, db.read, query, args...)
}

// WriterPragma reads an integer pragma on the writer connection.
func (db *DB) WriterPragma(ctx context.Context, name string) (int, error) {
	var v int
	err := db.write.QueryRowContext(ctx, `PRAGMA `+name).Scan(&v)
	return v, err
}

// QueuedPlan is SQLite's query plan for loading the embedding queue, one
// line per step.
func (db *DB) QueuedPlan(ctx context.Context) ([]string, error) {
	return db.queryPlan(ctx, queuedQuery, "m", 1, drainBatch)
}

// CurrentRollupScans is how many window queries CurrentRollups has run.
func CurrentRollupScans() int64 { return currentRollupScans.Load() }

// LinkStatements is how many statements have linked rollup sources.
func LinkStatements() int64 { return linkStatements.Load() }
