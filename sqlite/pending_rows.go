package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
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
// and so is the versions' multi-row statement (versionMultiSQL).
type pendingRows struct {
	tags     rowBuffer
	versions rowBuffer
}

// tagRows is the tags' multi-row statement, made once.
var tagRows = multiRowSQL(tagOneSQL, pendingBatch)

// versionMultiSQL is insertVersionSQL for pendingBatch rows as an
// INSERT OR IGNORE, which opens no savepoint. A row it ignores is one
// whose (memory_id, version) is taken, which the REPLACE of the single
// statement would have replaced: flush then takes back the rows it
// inserted and writes them all one at a time, as before.
var versionMultiSQL = multiRowSQL(strings.Replace(insertVersionSQL, "INSERT OR REPLACE", "INSERT OR IGNORE", 1), pendingBatch)

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
	}
}

// flush writes every pending row.
func (p *pendingRows) flush(ctx context.Context, tx *Tx) error {
	if err := p.versions.flush(ctx, tx); err != nil {
		return err
	}
	return p.tags.flush(ctx, tx)
}

// rowBuffer holds the arguments of rows of one single-row statement.
type rowBuffer struct {
	single string // the statement, one row: "... VALUES (?, ...)"
	multi  string // the same with pendingBatch rows
	width  int    // arguments a row
	// undo, when set, deletes the rows a multi-row statement inserted,
	// from the seq it is given on: multi ignores rows that single would
	// have written otherwise, and when it ignored any they are all
	// written again with single.
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

// add appends a row, writing the buffer once it holds pendingBatch.
func (b *rowBuffer) add(ctx context.Context, tx *Tx, row ...any) error {
	b.args = append(b.args, row...)
	if len(b.args) < b.width*pendingBatch {
		return nil
	}
	return b.flush(ctx, tx)
}

// flush writes the rows held: a full buffer with the multi-row statement,
// fewer rows one at a time.
func (b *rowBuffer) flush(ctx context.Context, tx *Tx) error {
	var err error
	one := len(b.args) < b.width*pendingBatch
	if !one {
		var res sql.Result
		res, err = tx.exec(ctx, b.multi, b.args...)
		if err == nil && b.undo != "" {
			one, err = b.undoShort(ctx, tx, res)
		}
	}
	for i := 0; one && i < len(b.args) && err == nil; i += b.width {
		_, err = tx.exec(ctx, b.single, b.args[i:i+b.width]...)
	}
	clear(b.args) // holds no text past its rows
	b.args = b.args[:0]
	return err
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
