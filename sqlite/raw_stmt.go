package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync"
	"time"
)

// rawStmts are the statements of Tx.exec (single rows written by key,
// constant SQL) prepared on the writer's driver connection itself, which
// a write transaction runs through (*sql.Conn).Raw instead of
// database/sql's statements: for each statement database/sql checks and
// converts every argument into a slice of its own, wraps the result and
// takes its locks, 1-1.5 µs and about five allocations, and a memory of
// a batched import runs five or six. They are prepared once per
// connection, when first run (preparing the memory's insert compiles the
// FTS triggers too, which costs as much as the insert).
type rawStmts struct {
	mu   sync.Mutex
	conn driver.Conn // the connection they were prepared on
	m    map[string]driver.StmtExecContext
}

// stmt returns query prepared on conn. The statements of another
// connection (database/sql replaced the writer's, closing it and them)
// are forgotten.
func (r *rawStmts) stmt(ctx context.Context, conn driver.Conn, query string) (driver.StmtExecContext, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn != conn {
		r.conn, r.m = conn, nil
	}
	if st := r.m[query]; st != nil {
		return st, nil
	}
	prep, ok := conn.(driver.ConnPrepareContext)
	if !ok {
		return nil, errNoRaw
	}
	st, err := prep.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	se, ok := st.(driver.StmtExecContext)
	if !ok {
		st.Close()
		return nil, errNoRaw
	}
	if r.m == nil {
		r.m = make(map[string]driver.StmtExecContext)
	}
	r.m[query] = se
	return se, nil
}

// errNoRaw says the driver cannot run a statement directly; the caller
// runs it through database/sql.
var errNoRaw = driver.ErrSkip

// closeOn closes the statements prepared on conn, before it closes.
func (r *rawStmts) closeOn(conn driver.Conn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn != conn {
		return
	}
	for _, st := range r.m {
		if c, ok := st.(interface{ Close() error }); ok {
			c.Close()
		}
	}
	r.conn, r.m = nil, nil
}

// closeIfInvalid closes the statements prepared on dc when the driver
// says dc is no longer fit for use (a statement of it was interrupted):
// database/sql then closes it as it goes back to the pool, and
// statements left unfinalized would keep its database open.
func (r *rawStmts) closeIfInvalid(dc any) {
	v, ok := dc.(driver.Validator)
	if !ok || v.IsValid() {
		return
	}
	if conn, ok := dc.(driver.Conn); ok {
		r.closeOn(conn)
	}
}

// any reports whether any statement is prepared.
func (r *rawStmts) any() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.m) > 0
}

// closeRawStmts closes the raw statements before the writer's pool
// closes; a process that wrote no memory has none, and connects nothing.
// It waits for a write under way to end, for up to busyTimeout: past
// that the statements are left to the process's end.
func (db *DB) closeRawStmts() {
	if db.write == nil || !db.raw.any() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), busyTimeout)
	defer cancel()
	c, err := db.write.Conn(ctx)
	if err != nil {
		return
	}
	defer c.Close()
	_ = c.Raw(func(dc any) error {
		if conn, ok := dc.(driver.Conn); ok {
			db.raw.closeOn(conn)
		}
		return nil
	})
}

// execRaw runs query with args on the transaction's driver connection;
// ran is false when it could not (an argument of a type it does not
// convert, a transaction without its connection), and the caller runs it
// through database/sql.
func (tx *Tx) execRaw(ctx context.Context, query string, args []any) (res sql.Result, ran bool, err error) {
	if tx.conn == nil {
		return nil, false, nil
	}
	nv := tx.nargs[:0]
	for i, a := range args {
		v, ok := driverValue(a)
		if !ok {
			return nil, false, nil
		}
		nv = append(nv, driver.NamedValue{Ordinal: i + 1, Value: v})
	}
	tx.nargs = nv
	defer clear(nv) // holds nothing of this row past the statement
	qctx := tx.quiet(ctx)
	err = tx.conn.Raw(func(dc any) error {
		// Once the context the transaction began under has ended,
		// database/sql rolls it back on a goroutine of its own, under
		// the connection's lock, which this function holds: a statement
		// run after that would write outside any transaction, and commit.
		// database/sql refuses its own statements then (ErrTxDone).
		if tx.begun != nil {
			if err := tx.begun.Err(); err != nil {
				return err
			}
		}
		conn, ok := dc.(driver.Conn)
		if !ok {
			return errNoRaw
		}
		st, err := tx.db.raw.stmt(qctx, conn, query)
		if err != nil {
			return err
		}
		r, err := st.ExecContext(qctx, nv)
		if err == nil {
			res = r
		}
		return err
	})
	if err == errNoRaw {
		return nil, false, nil
	}
	return res, true, err
}

// driverValue is a as database/sql hands it to the driver, for the types
// a write of a memory uses; ok is false for any other.
func driverValue(a any) (v driver.Value, ok bool) {
	switch x := a.(type) {
	case nil, int64, float64, bool, string, []byte, time.Time:
		return x, true
	case int:
		return int64(x), true
	case sql.NullString:
		if x.Valid {
			return x.String, true
		}
		return nil, true
	case sql.NullInt64:
		if x.Valid {
			return x.Int64, true
		}
		return nil, true
	}
	return nil, false
}
