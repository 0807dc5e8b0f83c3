package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// readStmts holds statements prepared on the reader pool for the queries a
// search runs every time: parsing and planning a full-text query costs as
// much as running it on a small store. database/sql prepares each one
// again on each connection of the pool the first time it is used there.
type readStmts struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// maxReadStmts bounds the statements kept for queries built from filters
// (readQuery): those name metadata paths users choose, so their texts are
// not a fixed set. A search uses a handful.
const maxReadStmts = 256

// readStmt returns the statement for query on the reader pool, prepared
// on first use.
func (db *DB) readStmt(ctx context.Context, query string) (*sql.Stmt, error) {
	return db.stmt(ctx, query, true)
}

// stmt returns the statement kept for query, preparing and keeping it
// when always is set or there is room; nil when there is none.
func (db *DB) stmt(ctx context.Context, query string, always bool) (*sql.Stmt, error) {
	db.rstmts.mu.Lock()
	defer db.rstmts.mu.Unlock()
	if st, ok := db.rstmts.m[query]; ok {
		return st, nil
	}
	if !always && len(db.rstmts.m) >= maxReadStmts {
		return nil, nil
	}
	st, err := db.read.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if db.rstmts.m == nil {
		db.rstmts.m = map[string]*sql.Stmt{}
	}
	db.rstmts.m[query] = st
	return st, nil
}

// readQuery runs a query on the reader pool through a statement prepared
// once, so that a search does not parse and plan the same SQL on every
// request (list arguments go in as one JSON array, see jsonList, so that
// the text does not change with their length).
func (db *DB) readQuery(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := db.stmt(ctx, query, false)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return db.read.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

// readQueryRow is readQuery for one row.
func (db *DB) readQueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := db.stmt(ctx, query, false)
	if err != nil || st == nil {
		// On a failed prepare the query runs unprepared and reports it.
		return db.read.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// keptReads is a querier over the reader pool's kept statements
// (readQuery, readQueryRow), for code that also runs in a transaction
// (checkModel) when it runs outside one at every search.
type keptReads struct{ db *DB }

func (k keptReads) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return k.db.readQueryRow(ctx, query, args...)
}

func (k keptReads) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return k.db.readQuery(ctx, query, args...)
}

// closeReadStmts closes the prepared statements before the pool closes.
func (db *DB) closeReadStmts() {
	db.rstmts.mu.Lock()
	defer db.rstmts.mu.Unlock()
	for _, st := range db.rstmts.m {
		st.Close()
	}
	db.rstmts.m = nil
}
