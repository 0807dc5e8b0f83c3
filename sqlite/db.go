// Package sqlite is recall's embedded store: one SQLite file in WAL mode,
// one writer connection taking immediate transactions and a pool of
// readers, so that hooks, servers and the CLI can share a store without
// "database is locked" and without losing writes.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	sqlite3 "modernc.org/sqlite"
	sqlite3lib "modernc.org/sqlite/lib"
)

// DefaultMaxContentBytes caps the content of one memory or observation.
const DefaultMaxContentBytes = 1 << 20

// busyTimeout is how long a connection waits for another process's lock
// before SQLite gives up; beginWrite retries beyond it.
const busyTimeout = 10 * time.Second

// DB is an open store.
type DB struct {
	Path string // the database file

	// Now is the clock; tests set it. One value is captured per transaction.
	Now func() time.Time
	// Redactor, when set, cleans every text before it is written.
	Redactor recall.Redactor
	// MaxContentBytes caps content size; 0 means DefaultMaxContentBytes.
	MaxContentBytes int
	// ForWrite sets the writer up when the store opens, for a caller
	// that is about to write; otherwise a reader checks whether the store
	// is current and the writer connects at the first write.
	ForWrite bool
	// ReadsOnWriter, with ForWrite and without BeforeWrite, makes the
	// reads use the writer's pool (see readsOnWriterConns) instead of
	// readers of their own; the caller works from one goroutine at a time.
	ReadsOnWriter bool
	// BeforeWrite, when set, is called before each transaction of update
	// begins, and its done once the transaction has ended.
	BeforeWrite func(ctx context.Context) (done func(), err error)
	gated       gatedWrites // see gate

	write *sql.DB // one connection: SQLite has one writer at a time anyway
	read  *sql.DB // a pool of query-only connections

	// hot holds statements prepared once on the writer connection, for
	// the statements every write of a memory runs: preparing compiles the
	// FTS triggers too, which costs as much as the insert itself. They
	// are prepared when a write first needs one (that transaction
	// prepares its own copy) and kept from the next write on, so that a
	// process that writes no memory (a search, a hook) prepares none.
	hot hotStmts

	vectors *VectorService // set by NewVectorService; embeds after each write

	rstmts  readStmts  // see readStmt
	terms   termCounts // see matchExpr
	lengths ftsLengths // see ownRank
}

// NewDB returns a store for the database file at path; call Open next.
func NewDB(path string) *DB {
	return &DB{Path: path, Now: time.Now}
}

func dsn(path string, pragmas []string, txlock string) string {
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	if txlock != "" {
		q.Set("_txlock", txlock)
	}
	return fileURI(path) + "?" + q.Encode()
}

// uriEscaper escapes what would end or change the path of a "file:" URI:
// SQLite's URI parser stops the path at '?' (the query) and '#' (the
// fragment) and decodes %HH, and the driver splits its own parameters off
// at the first '?'. Unescaped, a store in "notes#1/" opened "notes".
var uriEscaper = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// fileURI is the "file:" URI SQLite opens path by, whatever the path's
// characters.
func fileURI(path string) string { return "file:" + uriEscaper.Replace(filepath.ToSlash(path)) }

// pageSize is the page size of new stores. 16 KiB pages carry a memory
// with its vector, version and index entries in a few pages, so a batch
// writes (and checkpoints) a quarter of the pages of the 4 KiB default;
// each page is a system call of its own.
const pageSize = 16384

// setJournal sets the page size and auto_vacuum of a new file, then WAL
// mode. Each of the last two fixes the page size, and the driver runs DSN
// pragmas in alphabetical order, so they are run here, in this order. On
// an existing file the first two are no-ops and WAL mode is already set.
func (db *DB) setJournal() error {
	for _, p := range []string{fmt.Sprintf("PRAGMA page_size = %d", pageSize), "PRAGMA auto_vacuum = INCREMENTAL", "PRAGMA journal_mode = WAL"} {
		if err := execOpening(db.write, p); err != nil {
			return err
		}
	}
	return nil
}

// execOpening runs a statement of the store's opening, retrying while
// another process holds the database busy, for up to busyTimeout more:
// SQLite may answer SQLITE_BUSY at once instead of waiting (while another
// process vacuums and truncates the log, as a purge does), and an opening
// that gives up on the first refusal failed a hook or a writer that would
// have gone through a moment later.
func execOpening(c *sql.DB, q string) error {
	ctx, cancel := context.WithTimeout(context.Background(), busyTimeout)
	defer cancel()
	return whileBusy(ctx, func() error {
		_, err := c.Exec(q)
		return err
	})
}

// Open creates the file (0600) if needed, configures it and applies
// migrations.
func (db *DB) Open() (err error) {
	if db.Path == "" {
		return fmt.Errorf("sqlite: path required")
	}
	if err := os.MkdirAll(filepath.Dir(db.Path), 0o700); err != nil {
		return fmt.Errorf("sqlite: create directory: %w", err)
	}
	if err := db.create(); err != nil {
		return err
	}
	if err := db.openWriterPool(); err != nil {
		return err
	}
	if db.ForWrite && db.ReadsOnWriter && db.BeforeWrite == nil {
		return db.openReadsOnWriter()
	}
	if db.read, err = sql.Open("sqlite", dsn(db.Path, readerPragmas(), "")); err != nil {
		db.write.Close()
		return fmt.Errorf("sqlite: open readers: %w", err)
	}
	// A store that is current needs nothing from the writer: a reader
	// (which the process's reads then reuse) checks that, and the writer
	// connects on the first write, if any. A search opened, configured and
	// closed a writer connection it never used (parsing the schema on it).
	// A caller about to write sets the writer up at once instead, as
	// before: checking from a reader would connect one it may not need.
	if db.ForWrite || !current(context.Background(), db.read) {
		if err := db.setUpWriter(); err != nil {
			db.read.Close()
			return err
		}
	}
	readers := max(4, runtime.GOMAXPROCS(0))
	db.read.SetMaxOpenConns(readers)
	// Every reader stays open when idle. database/sql keeps two by
	// default and closes the others as they are put back, so under
	// concurrent searches (a hybrid search alone reads on two) readers
	// were closed and opened again all the time, each taking its page
	// cache and its prepared statements with it: a quarter of the CPU of
	// 'recall serve' went to reading pages again, freeing caches and
	// preparing statements.
	db.read.SetMaxIdleConns(readers)
	db.tightenSideFiles()
	return nil
}

// tightenSideFiles makes the files SQLite creates beside the database
// (-wal, -shm), which inherit the process umask, private to the user, so
// that a store never leaks to other users.
func (db *DB) tightenSideFiles() {
	for _, suffix := range []string{"-wal", "-shm"} {
		_ = os.Chmod(db.Path+suffix, 0o600)
	}
}

// readsOnWriterConns bounds the writer's pool when it serves the reads
// too (ReadsOnWriter). A hook reads and writes in turn, so one connection
// does everything and the process parses the schema once, where a reader
// of its own connected (about 0.8 ms of CPU: the schema, the pragmas)
// for a few small reads. A read while a write is under way, or inside
// another read, gets a second connection, as it got a reader before; one
// connection alone would wait for itself there. Such a process runs no
// upkeep, whose settings of the writer (secure_delete, busy_timeout,
// wal_autocheckpoint) are made on the one writer connection.
const readsOnWriterConns = 2

// openReadsOnWriter sets the writer up and makes it the reader pool too.
func (db *DB) openReadsOnWriter() error {
	if err := db.setUpWriter(); err != nil {
		return err
	}
	db.write.SetMaxOpenConns(readsOnWriterConns)
	db.read = db.write
	db.tightenSideFiles()
	return nil
}

// commonPragmas are the settings of every connection.
func commonPragmas() []string {
	return []string{
		fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()),
		"foreign_keys(1)",
		"synchronous(NORMAL)",
		// 32 MiB of page cache (the default is 2 MiB): a batch of writes
		// then stays in memory instead of spilling pages to the WAL
		// mid-transaction, and searches reread fewer pages. It is a
		// ceiling, used only as pages are touched.
		"cache_size(-32768)",
		// Statement journals (a statement that fires the FTS triggers opens
		// one) and temporary sorts stay in memory instead of temp files:
		// written page by page, they were a fifth of ingest time.
		"temp_store(MEMORY)",
	}
}

// readerPragmas are the settings of the reader connections: the common
// ones, query_only, and the file mapped (readerMmapBytes). Unmapped,
// every reader copied each page it read into a page cache of its own,
// one pread at a time; under 'recall serve' the four readers each filled
// theirs from the file (a page one reader had, the next read again):
// mapped, a served hybrid search at 100,000 memories took about 15% less
// CPU (docs/performance.md, "What every SQLite call pays"). The readers
// read the pages where the kernel keeps them, shared by every reader and
// process, without the copy; those pages are the file's, which the
// kernel can drop at any time, not memory of the process's own. The
// writer keeps reading into its cache: a write changes the pages it read.
func readerPragmas() []string {
	return append(commonPragmas(), "query_only(1)", fmt.Sprintf("mmap_size(%d)", int64(readerMmapBytes)))
}

// openWriter opens the writer connection, sets the journal and applies
// the migrations.
func (db *DB) openWriter() (err error) {
	if err := db.openWriterPool(); err != nil {
		return err
	}
	return db.setUpWriter()
}

// openWriterPool makes the writer's pool; it connects on first use.
func (db *DB) openWriterPool() (err error) {
	if db.write, err = sql.Open("sqlite", dsn(db.Path, commonPragmas(), "immediate")); err != nil {
		return fmt.Errorf("sqlite: open writer: %w", err)
	}
	db.write.SetMaxOpenConns(1)
	db.write.SetConnMaxIdleTime(0)
	return nil
}

// setUpWriter sets the journal and applies the migrations on the writer,
// closing it on failure. A store that is current needs neither: the
// writer asks first (two reads), where the set-up ran three pragmas and
// a CREATE TABLE IF NOT EXISTS, which waits for SQLite's write lock while
// another process holds it (a hook met the upkeep's transaction there).
func (db *DB) setUpWriter() error {
	if current(context.Background(), db.write) {
		return nil
	}
	if err := db.setJournal(); err != nil {
		db.write.Close()
		return fmt.Errorf("sqlite: open %s: %w", db.Path, err)
	}
	if err := db.migrate(context.Background()); err != nil {
		db.write.Close()
		return err
	}
	return nil
}

// Close closes both connection pools.
func (db *DB) Close() error {
	var errs []error
	db.closeReadStmts()
	if db.read != nil {
		errs = append(errs, db.read.Close())
	}
	if db.write != nil {
		errs = append(errs, db.write.Close())
	}
	return errors.Join(errs...)
}

// now is the time a transaction stamps, in the milliseconds the rows
// store: what a write returns and its version's snapshot then agree with
// the row read back, which lets that version share the row (migration
// 0020).
func (db *DB) now() time.Time {
	if db.Now == nil {
		return time.Now().UTC().Truncate(time.Millisecond)
	}
	return db.Now().UTC().Truncate(time.Millisecond)
}

func (db *DB) maxContent() int {
	if db.MaxContentBytes > 0 {
		return db.MaxContentBytes
	}
	return DefaultMaxContentBytes
}

// Tx is a write transaction with the time captured when it began.
type Tx struct {
	*sql.Tx
	db   *DB
	now  time.Time
	conn *sql.Conn // the writer's connection, held until the end: see execRaw

	vec   txVectors            // the inline embedder, see vector_inline.go
	stmts map[string]*sql.Stmt // see prepare
	args  []any                // see exec
	begun context.Context      // the context the transaction began under: see execRaw
	still context.Context      // the same, never ending: see quiet
	nargs []driver.NamedValue  // see execRaw
	raw   rawStmts             // see execRaw
	rows  *pendingRows         // an import's rows written in batches; nil writes each at once
	execs int                  // statements exec has run (tests count them)
}

// Commit commits the transaction and gives its connection back.
func (tx *Tx) Commit() error {
	err := tx.Tx.Commit()
	tx.release()
	return err
}

// Rollback rolls the transaction back, unless it has ended, and gives
// its connection back.
func (tx *Tx) Rollback() error {
	err := tx.Tx.Rollback()
	tx.release()
	return err
}

func (tx *Tx) release() {
	if tx.conn != nil {
		if tx.raw != nil {
			// Closed under the connection, before it goes back.
			_ = tx.conn.Raw(func(any) error {
				tx.raw.close()
				return nil
			})
		}
		tx.conn.Close()
		tx.conn = nil
	}
}

// prepare returns a statement prepared once per transaction (or once per
// store, for the statements in hotStatements), for statements run for every
// row of a batch: the driver parses SQL on every unprepared Exec. The
// statements close when the transaction ends.
func (tx *Tx) prepare(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := tx.stmts[query]; ok {
		return st, nil
	}
	var st *sql.Stmt
	var err error
	if hot := tx.db.hot.get(query); hot != nil {
		st = tx.StmtContext(ctx, hot)
	} else {
		st, err = tx.PrepareContext(ctx, query)
	}
	if err != nil {
		return nil, err
	}
	if tx.stmts == nil {
		tx.stmts = map[string]*sql.Stmt{}
	}
	tx.stmts[query] = st
	return st, nil
}

// exec runs a single statement through the statement cache. It hands
// the driver a copy of args kept by the transaction, so that the callers'
// argument lists, which a write of a memory builds five times, stay on
// their stacks.
func (tx *Tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	tx.execs++
	if res, ran, err := tx.execRaw(ctx, query, args); ran {
		return res, err
	}
	st, err := tx.prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	tx.args = append(tx.args[:0], args...)
	res, err := st.ExecContext(tx.quiet(ctx), tx.args...)
	clear(tx.args) // holds nothing of this row past the statement
	return res, err
}

// QueryRowContext runs a single-row query through the statement cache; it
// shadows sql.Tx's so that every lookup inside a write is prepared once.
func (tx *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := tx.prepare(ctx, query)
	if err != nil {
		return tx.Tx.QueryRowContext(ctx, query, args...) // reports the same error
	}
	if !tx.importing() {
		// Outside an import a lookup may scan (a rollup's earliest
		// memory, the queue's count): a paced slice's deadline or a
		// signal still cuts it short.
		return st.QueryRowContext(ctx, args...)
	}
	return st.QueryRowContext(tx.quiet(ctx), args...)
}

// importing reports whether tx is an import's: its rows wait in batches
// (rows), its statements run on the driver's connection (execRaw) and its
// keyed lookups under quiet. Every other write is a few rows, whose
// statements database/sql keeps for the store.
func (tx *Tx) importing() bool { return tx.rows != nil }

// quiet is the context a statement of exec or QueryRowContext runs
// under: one that never ends (tx.still) while ctx has not ended, else
// ctx itself, with which database/sql refuses the statement. Under a
// context that can end (the CLI's, which a signal ends) the driver starts
// a goroutine to watch it and sets a progress handler and a busy handler
// around every statement: 13-17 µs of CPU a memory of a batched import
// (five or six statements each), a fifth of its cost. The statements
// that come here are single rows, found or written by key, over in
// microseconds; what the watch would cut short is a wait for a lock,
// which a write transaction, holding its lock from its beginning, never
// has. A context that ends between two statements still stops the next.
func (tx *Tx) quiet(ctx context.Context) context.Context {
	if ctx.Err() != nil || tx.still == nil {
		return ctx
	}
	return tx.still
}

// beginWrite starts an immediate transaction on the writer. SQLite waits
// busy_timeout for another process's lock; past that, it retries with
// backoff until ctx ends, so concurrent writers queue instead of failing.
func (db *DB) beginWrite(ctx context.Context) (*Tx, error) {
	db.hot.prepareWanted(ctx, db.write)
	// The transaction is begun on a connection held for its length, so
	// that execRaw can reach the driver's connection under it.
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	var tx *sql.Tx
	err = whileBusy(ctx, func() (err error) {
		tx, err = conn.BeginTx(ctx, nil)
		return err
	})
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("begin: %w", err)
	}
	return &Tx{Tx: tx, db: db, now: db.now(), conn: conn, begun: ctx, still: context.WithoutCancel(ctx)}, nil
}

// whileBusy runs fn again, with backoff, while it fails because another
// process holds the database busy, until ctx ends; it returns fn's last
// error.
func whileBusy(ctx context.Context, fn func() error) error {
	delay := 5 * time.Millisecond
	for {
		err := fn()
		if err == nil || !isBusy(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(delay):
		}
		delay = min(delay*2, 500*time.Millisecond)
	}
}

// update runs fn in a write transaction and commits it, retrying the
// commit if another process holds a lock.
func (db *DB) update(ctx context.Context, fn func(tx *Tx) error) error {
	var tx *Tx
	var err error
	if db.BeforeWrite != nil {
		var done func()
		if tx, done, err = db.gatedBegin(ctx); err != nil {
			return err
		}
		defer done()
	} else if tx, err = db.beginWrite(ctx); err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// isBusy reports whether err is SQLITE_BUSY or SQLITE_LOCKED, matched by
// result code, never by message text.
func isBusy(err error) bool {
	var se *sqlite3.Error
	if errors.As(err, &se) {
		code := se.Code() & 0xff
		return code == sqlite3lib.SQLITE_BUSY || code == sqlite3lib.SQLITE_LOCKED
	}
	return false
}

// isConstraint reports whether err is a UNIQUE or PRIMARY KEY violation.
func isConstraint(err error) bool {
	var se *sqlite3.Error
	if errors.As(err, &se) {
		return se.Code()&0xff == sqlite3lib.SQLITE_CONSTRAINT
	}
	return false
}

// ms converts a time to the stored form, milliseconds since the epoch.
func ms(t time.Time) int64 { return t.UnixMilli() }

// fromMS converts a stored time back.
func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

func nullMS(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: ms(*t), Valid: true}
}

func fromNullMS(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMS(v.Int64)
	return &t
}
