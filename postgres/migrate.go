package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/recall-mem/recall"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the advisory lock key taken while migrating, so that
// several processes opening one database at once apply each migration once.
const migrationLock = 0x7265_6361_6c6c_0001 // "recall" 1

// migration is one numbered SQL file.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the embedded files, ordered by their number.
func loadMigrations() ([]migration, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, path := range names {
		name := strings.TrimPrefix(path, "migrations/")
		n, err := strconv.Atoi(strings.SplitN(name, "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("migration %s: the name must start with its number", name)
		}
		b, err := migrations.ReadFile(path)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: n, name: name, sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s share a number", out[i-1].name, out[i].name)
		}
	}
	return out, nil
}

// migrate applies the migrations the database has not seen, each in its
// own transaction, holding a session advisory lock on one connection
// throughout. The lock is database-wide: namespaces share the schema.
func (db *DB) migrate(ctx context.Context) error {
	all, err := loadMigrations()
	if err != nil {
		return err
	}
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(migrationLock)); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(migrationLock)) //nolint:errcheck // the session ends with the connection anyway
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS recall_migrations (
		version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return err
	}
	applied := map[int]bool{}
	rows, err := conn.Query(ctx, `SELECT version FROM recall_migrations`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return err
		}
		applied[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if err := knownMigrations(applied, all); err != nil {
		return err
	}
	for _, m := range all {
		if applied[m.version] {
			continue
		}
		tx, err := conn.Begin(ctx)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			tx.Rollback(ctx) //nolint:errcheck // the error that matters is the migration's
			return fmt.Errorf("%s: %w", m.name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO recall_migrations (version, name) VALUES ($1, $2)`, m.version, m.name); err != nil {
			tx.Rollback(ctx) //nolint:errcheck
			return err
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("%s: %w", m.name, err)
		}
	}
	return nil
}

// knownMigrations refuses a database that a newer recall has migrated:
// this binary would read its rows without what the unknown migrations
// changed and could write rows they no longer allow.
func knownMigrations(applied map[int]bool, all []migration) error {
	known := map[int]bool{}
	for _, m := range all {
		known[m.version] = true
	}
	var unknown []string
	for v := range applied {
		if !known[v] {
			unknown = append(unknown, fmt.Sprintf("%04d", v))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return recall.Errorf(recall.ECONFLICT, "The database was upgraded by a newer recall (migration %s, unknown to this one); nothing was changed. Upgrade recall to use it (`recall version` shows this one).", strings.Join(unknown, ", "))
}
