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
	rows, err := db.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// WriterPragma reads an integer pragma on the writer connection.
func (db *DB) WriterPragma(ctx context.Context, name string) (int, error) {
	var v int
	err := db.write.QueryRowContext(ctx, `PRAGMA `+name).Scan(&v)
	return v, err
}
