package sqlite

import (
	"context"
	"database/sql/driver"

	sqlite3 "modernc.org/sqlite"
)

// The fts5vocab tables a reader scores with, in its temp schema.
const (
	ftsInstances = "temp.memories_fts_instances" // term, doc, col, offset
	ftsTermRows  = "temp.memories_fts_terms"     // term, doc (rows), cnt
)

func init() { sqlite3.RegisterConnectionHook(addVocabTables) }

// addVocabTables declares the fts5vocab tables on every reader (a
// query_only connection) as it opens. query_only forbids writing the
// temp schema too, so it is lifted for the two declarations; they store
// nothing and name memories_fts only when read.
func addVocabTables(c sqlite3.ExecQuerierContext, _ string) (err error) {
	ctx := context.Background()
	// Only restoring query_only may fail the connection: without the
	// tables a reader still searches, with bm25() (ownRank).
	rows, err := c.QueryContext(ctx, `PRAGMA query_only`, nil)
	if err != nil {
		return nil
	}
	v := make([]driver.Value, 1)
	err = rows.Next(v)
	rows.Close()
	if on, _ := v[0].(int64); err != nil || on != 1 {
		return nil
	}
	if _, err := c.ExecContext(ctx, `PRAGMA query_only = 0`, nil); err != nil {
		return nil
	}
	defer func() {
		if _, e := c.ExecContext(ctx, `PRAGMA query_only = 1`, nil); err == nil {
			err = e
		}
	}()
	for _, q := range []string{
		`CREATE VIRTUAL TABLE IF NOT EXISTS ` + ftsInstances + ` USING fts5vocab(main, memories_fts, instance)`,
		`CREATE VIRTUAL TABLE IF NOT EXISTS ` + ftsTermRows + ` USING fts5vocab(main, memories_fts, row)`,
	} {
		if _, err := c.ExecContext(ctx, q, nil); err != nil {
			break
		}
	}
	return nil
}
