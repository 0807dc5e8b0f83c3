package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/recall-mem/recall"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migrate applies every embedded migration not yet applied, in name order,
// each in its own immediate transaction so that two processes opening a new
// store at once cannot both apply one.
func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY) WITHOUT ROWID`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	sort.Strings(names)
	// Every process opens the store (a hook, each CLI call): read what is
	// applied in one query and take the write lock only for what is not.
	applied, err := appliedMigrations(ctx, db.write)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := knownMigrations(applied, names); err != nil {
		return err
	}
	for _, name := range names {
		if applied[name] {
			continue
		}
		if err := db.migrateFile(ctx, name); err != nil {
			return fmt.Errorf("migrate %s: %w", name, err)
		}
	}
	return nil
}

// current reports, from connections of c, whether the store is in WAL
// mode and has every migration this binary knows and none it does not:
// then opening it needs neither the journal settings nor the migrations
// on the writer. Any doubt (an error, a busy database, a new file)
// answers false, and the writer's path decides as before.
func current(ctx context.Context, c *sql.DB) bool {
	var mode string
	if err := c.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || !strings.EqualFold(mode, "wal") {
		return false
	}
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return false
	}
	applied, err := appliedMigrations(ctx, c)
	if err != nil || len(applied) != len(names) {
		return false
	}
	for _, n := range names {
		if !applied[n] {
			return false
		}
	}
	return true
}

// appliedMigrations reads the names in the migrations table.
func appliedMigrations(ctx context.Context, c *sql.DB) (map[string]bool, error) {
	rows, err := c.QueryContext(ctx, `SELECT name FROM migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	applied := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		applied[name] = true
	}
	return applied, rows.Err()
}

func (db *DB) migrateFile(ctx context.Context, name string) error {
	return db.update(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM migrations WHERE name = ?`, name).Scan(&n); err != nil {
			return err
		} else if n > 0 {
			return nil
		}
		buf, err := fs.ReadFile(migrationFS, name)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(buf)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO migrations (name) VALUES (?)`, name)
		return err
	})
}

// knownMigrations refuses a store that a newer recall has migrated: this
// binary would read its rows without what the unknown migrations changed
// (moved columns, new triggers) and could write rows they no longer allow.
func knownMigrations(applied map[string]bool, names []string) error {
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	var unknown []string
	for n := range applied {
		if !known[n] {
			unknown = append(unknown, strings.TrimPrefix(n, "migrations/"))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return recall.Errorf(recall.ECONFLICT, "The store was upgraded by a newer recall (migration %s, unknown to this one); nothing was changed. Upgrade recall to use it (`recall version` shows this one).", strings.Join(unknown, ", "))
}
