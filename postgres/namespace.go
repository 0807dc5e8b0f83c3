package postgres

import (
	"context"
	"fmt"

	"github.com/recall-mem/recall"
)

// DropNamespace deletes every row of the namespace rawURL names, in one
// transaction, leaving the schema and the other namespaces as they are.
// It is for throw-away namespaces (a benchmark's): nothing is vacuumed,
// so the rows' bytes stay in the tables' pages until the space is reused.
func DropNamespace(ctx context.Context, rawURL string) error {
	db, err := Open(ctx, rawURL)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.tx(ctx, func(tx *Tx) error {
		// Backwards through the restore order: a vector before its memory,
		// a source before its rollup.
		for i := len(backupTables) - 1; i >= 0; i-- {
			if _, err := tx.Exec(ctx, `DELETE FROM `+backupTables[i]+` WHERE namespace = $1`, db.Namespace); err != nil {
				return db.wrap(recall.EINTERNAL, "drop namespace", fmt.Errorf("%s: %w", backupTables[i], err))
			}
		}
		return nil
	})
}
