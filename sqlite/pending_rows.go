package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/recall-mem/recall"
)

// pendingBatch is how many rows one statement of pendingRows writes.
const pendingBatch = 64

// pendingRows are the tag and version rows of the memories an import
// writes, written pendingBatch at a time by one multi-row statement
// instead of one statement a row: a statement costs 1-2 µs besides its
// row (binding, starting the program, opening its cursors, resetting).
// Nothing an import reads depends on them until it updates a memory,
// which writes them first (writeMemory), as does the end of each
// importInto.
//
// The full-text rows keep a statement each. A multi-row statement that
// may fail halfway (a plain insert, an INSERT OR REPLACE) opens a
// savepoint, and FTS5 writes its pending terms to disk at every
// savepoint: the index was cut into a segment per statement. An
// INSERT OR IGNORE never fails halfway and opens none: the tags' is one,
// and so is the versions' (insertVersionSQL).
type pendingRows struct {
	tags     rowBuffer
	versions rowBuffer
	// inserted holds, for each pending version row, the memory whose
	// insert wrote it: a row left out because its version is taken (the
	// id names a deleted memory's history) is that memory's to write
	// again (retakeInserts).
	inserted []pendingInsert
	// lasts holds the last version of each id of the import's current
	// chunk that has a history (given ids of deleted memories), asked
	// for the chunk at once rather than an id at a time; nil outside an
	// import, when insertMemory asks for its id itself.
	lasts map[string]int
}

// pendingInsert is a new memory whose version row is pending.
type pendingInsert struct {
	m     *recall.Memory
	seq   int64 // its row's
	op    string
	drawn bool // its id was generated
	draws int  // ids drawn for it so far
}

// tagRows is the tags' multi-row statement, made once.
var tagRows = multiRowSQL(tagOneSQL, pendingBatch)

// versionMultiSQL is insertVersionSQL for pendingBatch rows. A row it
// ignores is one whose (memory_id, version) is taken: flush then takes
// back the rows it inserted and writes them all one at a time, which
// names the rows left out.
var versionMultiSQL = multiRowSQL(insertVersionSQL, pendingBatch)

// undoVersionsSQL deletes the version rows with seqs ?1 to ?2: those a
// multi-row statement has just appended. seq is an INTEGER PRIMARY KEY
// without AUTOINCREMENT, so each row took the largest seq plus one, and
// after the delete the rows written again one at a time take the seqs
// they would have had. That holds only while the largest seq is below
// 2^63-1 (another program may write one): past it SQLite picks free seqs
// at random, so the range is deleted only when ?2 is still the largest
// seq, and undoShort fails the import unless it deleted every row of it.
const undoVersionsSQL = `DELETE FROM memory_versions WHERE seq BETWEEN ?1 AND ?2
	AND (SELECT MAX(seq) FROM memory_versions) = ?2`

func newPendingRows() *pendingRows {
	return &pendingRows{
		tags:     rowBuffer{single: tagOneSQL, multi: tagRows, width: 2},
		versions: rowBuffer{single: insertVersionSQL, multi: versionMultiSQL, width: 6, undo: undoVersionsSQL},
		inserted: make([]pendingInsert, 0, pendingBatch), // one allocation, not seven
	}
}

// addVersion appends the version row of a memory just inserted (in),
// writing the buffer once it holds pendingBatch.
func (p *pendingRows) addVersion(ctx context.Context, tx *Tx, in *pendingInsert, row ...any) error {
	p.inserted = append(p.inserted, *in)
	if !p.versions.add(row...) {
		return nil
	}
	return p.flushVersions(ctx, tx)
}

// addTag appends a tag row, writing the buffer once it holds
// pendingBatch.
func (p *pendingRows) addTag(ctx context.Context, tx *Tx, tag string, seq int64) error {
	if !p.tags.add(tag, seq) {
		return nil
	}
	_, err := p.tags.flush(ctx, tx)
	return err
}

// flush writes every pending row.
func (p *pendingRows) flush(ctx context.Context, tx *Tx) error {
	if err := p.flushVersions(ctx, tx); err != nil {
		return err
	}
	_, err := p.tags.flush(ctx, tx)
	return err
}

// flushVersions writes the pending version rows, and inserts again the
// memories whose version was taken, with their own version rows.
func (p *pendingRows) flushVersions(ctx context.Context, tx *Tx) error {
	for len(p.versions.args) > 0 {
		taken, err := p.versions.flush(ctx, tx)
		var again []pendingInsert
		for _, i := range taken {
			again = append(again, p.inserted[i])
		}
		clear(p.inserted)
		p.inserted = p.inserted[:0]
		if err == nil && len(again) > 0 {
			err = retakeInserts(ctx, tx, again)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// rowBuffer holds the arguments of rows of one single-row statement.
type rowBuffer struct {
	single string // the statement, one row: "... VALUES (?, ...)"
	multi  string // the same with pendingBatch rows
	width  int    // arguments a row
	// undo, when set, deletes the rows a multi-row statement inserted,
	// from the seq it is given on: multi ignores rows whose key is taken,
	// and when it ignored any they are all written again with single,
	// which tells which.
	undo string
	args []any
}

// multiRowSQL is single, an insert of one row ending in "VALUES (...)",
// inserting n rows.
func multiRowSQL(single string, n int) string {
	i := strings.LastIndex(single, "VALUES ") + len("VALUES ")
	row := single[i:]
	return single[:i] + strings.Repeat(row+", ", n-1) + row
}

// add appends a row and reports whether the buffer holds pendingBatch.
func (b *rowBuffer) add(row ...any) bool {
	b.args = append(b.args, row...)
	return len(b.args) >= b.width*pendingBatch
}

// flush writes the rows held: a full buffer with the multi-row statement,
// fewer rows one at a time. With undo set it returns the positions of
// the rows the statement left out (their key was taken).
func (b *rowBuffer) flush(ctx context.Context, tx *Tx) ([]int, error) {
	var err error
	var taken []int
	one := len(b.args) < b.width*pendingBatch
	if !one {
		var res sql.Result
		res, err = tx.exec(ctx, b.multi, b.args...)
		if err == nil && b.undo != "" {
			one, err = b.undoShort(ctx, tx, res)
		}
	}
	for i := 0; one && i < len(b.args) && err == nil; i += b.width {
		var res sql.Result
		res, err = tx.exec(ctx, b.single, b.args[i:i+b.width]...)
		if err == nil && b.undo != "" {
			var n int64
			if n, err = res.RowsAffected(); n == 0 && err == nil {
				taken = append(taken, i/b.width)
			}
		}
	}
	clear(b.args) // holds no text past its rows
	b.args = b.args[:0]
	return taken, err
}

// undoShort reports whether the multi-row statement that gave res left
// out any row, after deleting the rows it did insert, so that they can
// all be written one at a time.
func (b *rowBuffer) undoShort(ctx context.Context, tx *Tx, res sql.Result) (bool, error) {
	n, err := res.RowsAffected()
	if err != nil || n == pendingBatch {
		return false, err
	}
	if n > 0 {
		last, err := res.LastInsertId()
		if err != nil {
			return false, err
		}
		res, err := tx.exec(ctx, b.undo, last-n+1, last)
		if err != nil {
			return false, err
		}
		if gone, err := res.RowsAffected(); err != nil || gone != n {
			return false, fmt.Errorf("import: the %d rows a multi-row insert appended are not the table's last (%d taken back): %w", n, gone, err)
		}
	}
	return true, nil
}
