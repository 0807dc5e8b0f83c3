package postgres

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// backupFormat names the file Backup writes: one JSON header line, then
// one line per row of the namespace, {"table": …, "row": …}.
const backupFormat = "recall-postgres-namespace"

// backupTables are the tables a backup holds, in the order a restore
// inserts them (a vector after its memory, a source after its rollup).
var backupTables = []string{"memories", "memory_versions", "memory_vectors", "observations", "sessions",
	"store_meta", "sync_records", "memory_rollups", "memory_rollup_sources", "forget_log"}

type backupHeader struct {
	Format    string              `json:"format"`
	Namespace string              `json:"namespace"`
	Schema    int                 `json:"schema"`
	Counts    recall.BackupCounts `json:"counts"`
}

type backupLine struct {
	Table string          `json:"table"`
	Row   json.RawMessage `json:"row"`
}

// Backup writes the namespace's rows, read in one snapshot, to a file at
// path: a copy of one namespace that Restore loads into another store
// (another namespace or database). It is not a backup of the database:
// that is the server's, with pg_dump or a base backup (docs/postgres.md).
func (u Upkeep) Backup(ctx context.Context, path string) (recall.BackupCounts, error) {
	var counts recall.BackupCounts
	tmp, err := os.CreateTemp(filepath.Dir(path), ".recall-backup-*")
	if err != nil {
		return counts, recall.Errorf(recall.EINVALID, "Cannot write the backup beside %s: %v. Choose a directory you can write to.", path, errors.Unwrap(err))
	}
	defer os.Remove(tmp.Name()) //nolint:errcheck // gone after the rename
	w := bufio.NewWriter(tmp)
	err = pgx.BeginTxFunc(ctx, u.db.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if counts, err = u.db.counts(ctx, tx); err != nil {
			return err
		}
		var schema int
		if err := tx.QueryRow(ctx, `SELECT max(version) FROM recall_migrations`).Scan(&schema); err != nil {
			return err
		}
		enc := json.NewEncoder(w)
		if err := enc.Encode(backupHeader{Format: backupFormat, Namespace: u.db.Namespace, Schema: schema, Counts: counts}); err != nil {
			return err
		}
		for _, t := range backupTables {
			rows, err := tx.Query(ctx, `SELECT row_to_json(t)::text FROM `+t+` t WHERE t.namespace = $1`, u.db.Namespace)
			if err != nil {
				return fmt.Errorf("back up %s: %w", t, err)
			}
			for rows.Next() {
				var row string
				if err := rows.Scan(&row); err != nil {
					rows.Close()
					return err
				}
				if err := enc.Encode(backupLine{Table: t, Row: json.RawMessage(row)}); err != nil {
					rows.Close()
					return err
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("back up %s: %w", t, err)
			}
		}
		return nil
	})
	if err == nil {
		err = errors.Join(w.Flush(), tmp.Sync(), tmp.Close())
	} else {
		tmp.Close()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return counts, fmt.Errorf("backup: %w", err)
	}
	return counts, nil
}

// Restore replaces the namespace's rows with those of a backup written by
// Backup (of any namespace), in one transaction. A namespace that holds
// data is replaced only with force.
func (u Upkeep) Restore(ctx context.Context, path string, force bool) (recall.BackupCounts, error) {
	var counts recall.BackupCounts
	f, err := os.Open(path)
	if err != nil {
		return counts, recall.Errorf(recall.EINVALID, "Cannot read the backup %s: %v.", path, errors.Unwrap(err))
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 64<<20)
	var h backupHeader
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &h) != nil || h.Format != backupFormat {
		return counts, recall.Errorf(recall.EINVALID, "%s is not a backup of a PostgreSQL store's namespace: nothing was changed. (A SQLite backup is a database file; moving a store between backends is `recall migrate`, not built yet.)", path)
	}
	cur, err := u.Counts(ctx)
	if err != nil {
		return counts, err
	}
	if !cur.Empty() && !force {
		return counts, recall.Errorf(recall.ECONFLICT, "The store %s holds %d memories, %d observations and %d sessions, which a restore replaces: back it up first (`recall backup FILE`), then restore with --force.", u.db, cur.Memories, cur.Observations, cur.Sessions)
	}
	err = u.db.tx(ctx, func(tx *Tx) error {
		for i := len(backupTables) - 1; i >= 0; i-- {
			if _, err := tx.Exec(ctx, `DELETE FROM `+backupTables[i]+` WHERE namespace = $1`, tx.db.Namespace); err != nil {
				return fmt.Errorf("clear %s: %w", backupTables[i], err)
			}
		}
		inserts := map[string]string{}
		for sc.Scan() {
			var l backupLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				return recall.Errorf(recall.EINVALID, "%s is damaged (%v): nothing was changed.", path, err)
			}
			q, ok := inserts[l.Table]
			if !ok {
				if q, err = tx.restoreSQL(ctx, l.Table); err != nil {
					return err
				}
				inserts[l.Table] = q
			}
			if _, err := tx.Exec(ctx, q, string(l.Row), tx.db.Namespace); err != nil {
				if uniqueViolation(err) {
					return recall.Errorf(recall.ECONFLICT, "Restoring %s: a row of %s is already in the database (%v); restore into another database, or purge what clashes first. Nothing was changed.", path, l.Table, err)
				}
				return fmt.Errorf("restore %s: %w", l.Table, err)
			}
		}
		if err := sc.Err(); err != nil {
			return recall.Errorf(recall.EINVALID, "%s is damaged (%v): nothing was changed.", path, err)
		}
		// Rows came with their ids: move the sequences past them.
		for _, t := range []string{"observations", "memories"} {
			col := map[string]string{"observations": "id", "memories": "seq"}[t]
			if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), greatest((SELECT max(`+col+`) FROM `+t+`), 1))`, t, col); err != nil {
				return fmt.Errorf("restore %s sequence: %w", t, err)
			}
		}
		counts, err = tx.db.counts(ctx, tx)
		return err
	})
	return counts, err
}

// restoreSQL is the insert of one backed-up row ($1, JSON) of table into
// the namespace $2: every column the schema does not compute, ids kept,
// except the audit log's own numbering.
func (tx *Tx) restoreSQL(ctx context.Context, table string) (string, error) {
	known := false
	for _, t := range backupTables {
		known = known || t == table
	}
	if !known {
		return "", recall.Errorf(recall.EINVALID, "The backup holds rows of an unknown table %q: it was written by a newer recall. Nothing was changed.", table)
	}
	cols, err := queryStrings(ctx, tx, `SELECT column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
		AND NOT (table_name = 'forget_log' AND column_name = 'id') ORDER BY ordinal_position`, table)
	if err != nil {
		return "", fmt.Errorf("columns of %s: %w", table, err)
	}
	var names, values string
	for i, c := range cols {
		if i > 0 {
			names, values = names+", ", values+", "
		}
		id := pgx.Identifier{c}.Sanitize()
		names += id
		if c == "namespace" {
			values += "$2"
		} else {
			values += "r." + id
		}
	}
	return `INSERT INTO ` + table + ` (` + names + `) OVERRIDING SYSTEM VALUE SELECT ` + values +
		` FROM json_populate_record(NULL::` + table + `, $1::json) r`, nil
}
