package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"time"
)

// rawStmts are the statements of an import's Tx.exec (single rows written
// by key, constant SQL) prepared on the writer's driver connection
// itself, which the transaction runs through (*sql.Conn).Raw instead of
// database/sql's statements: for each statement database/sql checks and
// converts every argument into a slice of its own, wraps the result and
// takes its locks, 1-1.5 µs and about five allocations, and a memory of
// a batched import runs five or six.
//
// They are prepared when first run in the transaction and closed when it
// ends, on the connection it holds (release): database/sql knows nothing
// of them, so statements kept past the transaction would outlive a
// connection it discards (after a statement of any other write was
// interrupted), and SQLite keeps a connection with unfinalized statements
// open, with its files and page cache, until they are. An import of
// 1,000 memories prepares them once; a single write, which would prepare
// them for one row, runs through database/sql's statements kept for the
// store (hot_stmt.go) instead.
type rawStmts map[string]driver.StmtExecContext

// stmt returns query prepared on conn, preparing it the first time.
func (r *rawStmts) stmt(ctx context.Context, conn driver.Conn, query string) (driver.StmtExecContext, error) {
	if st := (*r)[query]; st != nil {
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
	if *r == nil {
		*r = make(rawStmts)
	}
	(*r)[query] = se
	return se, nil
}

// errNoRaw says the driver cannot run a statement directly; the caller
// runs it through database/sql.
var errNoRaw = driver.ErrSkip

// close finalizes the statements; the caller holds their connection.
func (r *rawStmts) close() {
	for _, st := range *r {
		if c, ok := st.(interface{ Close() error }); ok {
			c.Close()
		}
	}
	*r = nil
}

// execRaw runs query with args on the transaction's driver connection;
// ran is false when it does not (not an import, an argument of a type it
// does not convert, a transaction without its connection), and the caller
// runs it through database/sql.
func (tx *Tx) execRaw(ctx context.Context, query string, args []any) (res sql.Result, ran bool, err error) {
	if tx.conn == nil || !tx.importing() {
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
		st, err := tx.raw.stmt(qctx, conn, query)
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
