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

// readStmt returns the statement for query on the reader pool, prepared
// on first use.
func (db *DB) readStmt(ctx context.Context, query string) (*sql.Stmt, error) {
	db.rstmts.mu.Lock()
	defer db.rstmts.mu.Unlock()
	if st, ok := db.rstmts.m[query]; ok {
		return st, nil
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

// closeReadStmts closes the prepared statements before the pool closes.
func (db *DB) closeReadStmts() {
	db.rstmts.mu.Lock()
	defer db.rstmts.mu.Unlock()
	for _, st := range db.rstmts.m {
		st.Close()
	}
	db.rstmts.m = nil
}
