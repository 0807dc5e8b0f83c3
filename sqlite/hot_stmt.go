package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// hotStmts are the hotStatements prepared on the writer (see DB.hot).
type hotStmts struct {
	mu     sync.Mutex
	m      map[string]*sql.Stmt
	wanted []string // needed by a write, prepared before the next one
}

// isHot is the set of hotStatements.
var isHot = func() map[string]bool {
	m := make(map[string]bool, len(hotStatements))
	for _, q := range hotStatements {
		m[q] = true
	}
	return m
}()

// get returns the prepared statement for query, or nil; a hot statement
// not yet prepared is noted for the next write.
func (h *hotStmts) get(query string) *sql.Stmt {
	h.mu.Lock()
	defer h.mu.Unlock()
	if st := h.m[query]; st != nil || !isHot[query] {
		return st
	}
	for _, q := range h.wanted {
		if q == query {
			return nil
		}
	}
	h.wanted = append(h.wanted, query)
	return nil
}

// prepareWanted prepares the statements writes asked for, before a
// transaction holds the writer's one connection. It does not hold the
// lock while preparing: the writer may be inside another transaction,
// which get must not wait for. A statement that fails to prepare here is
// prepared by each transaction instead, as every statement is.
func (h *hotStmts) prepareWanted(ctx context.Context, write *sql.DB) {
	h.mu.Lock()
	wanted := h.wanted
	h.wanted = nil
	h.mu.Unlock()
	for _, q := range wanted {
		st, err := write.PrepareContext(ctx, q)
		if err != nil {
			continue
		}
		h.mu.Lock()
		if h.m == nil {
			h.m = make(map[string]*sql.Stmt, len(hotStatements))
		}
		if h.m[q] == nil {
			h.m[q], st = st, nil
		}
		h.mu.Unlock()
		if st != nil { // another write prepared it meanwhile
			st.Close()
		}
	}
}

// prepared reports how many hot statements are prepared.
func (h *hotStmts) prepared() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.m)
}
