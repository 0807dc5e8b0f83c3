package sqlite

import (
	"context"
	"fmt"
	"strings"
)

// ftsTables are the FTS5 indexes that Check verifies. Packages adding an
// FTS5 table in a migration add its name here.
var ftsTables = []string{"memories_fts", "observations_fts", "memory_rollups_fts"}

// Check runs SQLite's integrity_check and FTS5's integrity-check on every
// index, and returns an error describing every problem found.
func (db *DB) Check(ctx context.Context) error {
	var problems []string
	rows, err := db.write.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("integrity_check: %w", err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return err
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	rows.Close()
	for _, t := range ftsTables {
		if _, err := db.write.ExecContext(ctx, `INSERT INTO `+t+`(`+t+`) VALUES ('integrity-check')`); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", t, err))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("store check failed: %s", strings.Join(problems, "; "))
	}
	return nil
}
