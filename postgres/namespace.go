package postgres

import (
	"context"
	"fmt"

	"github.com/recall-mem/recall"
)

// DropNamespace deletes every row of the namespace rawURL names, in one
// transaction; the schema and the other namespaces stay. It is meant for
// a benchmark's throw-away namespaces: nothing is vacuumed, so the bytes
// of the rows stay in the tables' pages until the space is reused.
func DropNamespace(ctx context.Context, rawURL string) error {
	db, err := Open(ctx, rawURL)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.tx(ctx, func(tx *Tx) error {
		// In the reverse of a restore's order: vectors before their
		// memories, sources before their rollups.
		for i := len(backupTables) - 1; i >= 0; i-- {
			if _, err := tx.Exec(ctx, `DELETE FROM `+backupTables[i]+` WHERE namespace = $1`, db.Namespace); err != nil {
				return db.wrap(recall.EINTERNAL, "drop namespace", fmt.Errorf("%s: %w", backupTables[i], err))
			}
		}
		return nil
	})
}
