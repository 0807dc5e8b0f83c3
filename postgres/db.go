// Package postgres is recall's shared store on PostgreSQL (with pgvector):
// the same services as the SQLite store, for teams whose agents run on
// several machines. Many projects share one database: every row carries a
// namespace and every query is scoped to the store's own.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/recall-mem/recall"
)

// DefaultMaxContentBytes caps the content of one memory or observation,
// as on SQLite.
const DefaultMaxContentBytes = 1 << 20

// DefaultNamespace is the namespace of a URL that names none.
const DefaultNamespace = "default"

// DB is an open store: a connection pool and the namespace it works in.
type DB struct {
	// Namespace scopes every row this store reads or writes.
	Namespace string
	// Now is the clock; tests set it. One value is captured per transaction.
	Now func() time.Time
	// MaxContentBytes caps content size; 0 means DefaultMaxContentBytes.
	MaxContentBytes int
	// Redactor, when set, removes secrets from everything written, before
	// it reaches the server (and its WAL, replicas and backups).
	Redactor recall.Redactor

	// onWrite, when set, hears of the memories written (the vectors embed
	// them; see VectorService.wrote).
	onWrite func(ctx context.Context, ids []string)
	// onWriteMemories, when set, hears of the memories written, as
	// stored, so that their text need not be read back.
	onWriteMemories func(ctx context.Context, ms []*recall.Memory)

	pool  *pgxpool.Pool
	stats termStats // for search's IDF; see termstats.go

	analyzeMu    sync.Mutex
	sinceAnalyze int      // memories added by this process since it last analyzed; see memory_analyze.go
	safe         string   // the URL without its password, for messages
	secrets      []string // the passwords in the URL, cut out of driver errors
}

// Open connects to the database at rawURL (postgres://…), applies the
// migrations and returns the store. A "namespace" query parameter selects
// the namespace (DefaultNamespace when absent); every other parameter is
// pgx's. Errors never carry the password.
func Open(ctx context.Context, rawURL string) (*DB, error) {
	return open(ctx, rawURL, nil)
}

// open is Open with tune, when not nil, adjusting the pool's settings
// (tests trace the statements sent).
func open(ctx context.Context, rawURL string, tune func(*pgxpool.Config)) (*DB, error) {
	conn, ns, err := splitNamespace(rawURL)
	if err != nil {
		return nil, err
	}
	db := &DB{Namespace: ns, Now: time.Now, safe: recall.RedactURL(rawURL), secrets: secretsOf(rawURL)}
	cfg, err := pgxpool.ParseConfig(conn)
	if err != nil {
		return nil, db.wrap(recall.EINVALID, "parse", err)
	}
	if tune != nil {
		tune(cfg)
	}
	if db.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, db.wrap(recall.EUNAVAILABLE, "connect", err)
	}
	if err := db.pool.Ping(ctx); err != nil {
		db.pool.Close()
		return nil, db.wrap(recall.EUNAVAILABLE, "connect", err)
	}
	if err := db.migrate(ctx); err != nil {
		db.pool.Close()
		if recall.ErrorCode(err) == recall.ECONFLICT { // a newer recall's database
			return nil, db.wrap(recall.ECONFLICT, "open", errors.New(recall.ErrorMessage(err)))
		}
		return nil, db.wrap(recall.EINTERNAL, "migrate", err)
	}
	return db, nil
}

// Close closes the pool.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// String names the store without its password.
func (db *DB) String() string { return db.safe }

func (db *DB) maxContent() int {
	if db.MaxContentBytes > 0 {
		return db.MaxContentBytes
	}
	return DefaultMaxContentBytes
}

// now is the store clock truncated to microseconds, what timestamptz
// keeps, so that a value written reads back equal.
func (db *DB) now() time.Time { return db.Now().UTC().Truncate(time.Microsecond) }

// splitNamespace takes the namespace parameter out of a URL, since the
// server would refuse it as an unknown run-time setting.
func splitNamespace(raw string) (conn, ns string, err error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", "", recall.Errorf(recall.EINVALID, "Invalid PostgreSQL URL %s: use postgres://user@host:5432/dbname.", recall.RedactURL(raw))
	}
	q := u.Query()
	ns = q.Get("namespace")
	q.Del("namespace")
	u.RawQuery = q.Encode()
	if ns == "" {
		ns = DefaultNamespace
	}
	if err := recall.ValidateCollection(ns); err != nil {
		return "", "", recall.Errorf(recall.EINVALID, "Invalid namespace %q: use lower-case letters, digits, '.', '_' or '-'.", ns)
	}
	return u.String(), ns, nil
}

// tx runs fn in a transaction, committing when it returns nil. The clock
// is read once, so every row of one change carries the same time.
func (db *DB) tx(ctx context.Context, fn func(tx *Tx) error) error {
	t, err := db.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: begin: %w", err)
	}
	defer t.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	if err := fn(&Tx{Tx: t, db: db, now: db.now()}); err != nil {
		return err
	}
	if err := t.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: commit: %w", err)
	}
	return nil
}

// Tx is a transaction of the store, with the time of its change.
type Tx struct {
	pgx.Tx
	db  *DB
	now time.Time
}

// querier is what reads need: the pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// uniqueViolation reports whether err is a broken unique constraint.
func uniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// wrote tells onWrite of the memories written.
func (db *DB) wrote(ctx context.Context, ids ...string) {
	if db.onWrite != nil {
		db.onWrite(ctx, ids)
	}
}

// wroteMemories tells onWriteMemories of the memories written, as stored
// (onWrite of their ids when it is not set).
func (db *DB) wroteMemories(ctx context.Context, ms ...*recall.Memory) {
	if db.onWriteMemories != nil {
		db.onWriteMemories(ctx, ms)
		return
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	db.wrote(ctx, ids...)
}
