package sqlite

import (
	"context"
	"strings"
)

// pendingBatch is how many rows one statement of pendingRows writes.
const pendingBatch = 64

// pendingRows are the tag rows of the memories an import inserts,
// written pendingBatch at a time by one multi-row statement instead of
// one statement a row: a statement costs 1-2 µs besides its row
// (binding, starting the program, opening its cursors, resetting).
// Nothing an import reads depends on them until it updates a memory,
// which writes them first (writeMemory), as does the end of each
// importInto.
//
// The full-text and version rows keep a statement each. A multi-row
// statement that may fail halfway (a plain insert, an INSERT OR REPLACE)
// opens a savepoint, and FTS5 writes its pending terms to disk at every
// savepoint: the index was cut into a segment per statement. An
// INSERT OR IGNORE, as the tags' is, never fails halfway and opens none.
type pendingRows struct {
	tags rowBuffer
}

// tagRows is the tags' multi-row statement, made once.
var tagRows = multiRowSQL(tagOneSQL, pendingBatch)

func newPendingRows() *pendingRows {
	return &pendingRows{tags: rowBuffer{single: tagOneSQL, multi: tagRows, width: 2}}
}

// flush writes every pending row.
func (p *pendingRows) flush(ctx context.Context, tx *Tx) error {
	return p.tags.flush(ctx, tx)
}

// rowBuffer holds the arguments of rows of one single-row statement.
type rowBuffer struct {
	single string // the statement, one row: "... VALUES (?, ...)"
	multi  string // the same with pendingBatch rows
	width  int    // arguments a row
	args   []any
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
	if len(b.args) == b.width*pendingBatch {
		_, err = tx.exec(ctx, b.multi, b.args...)
	} else {
		for i := 0; i < len(b.args) && err == nil; i += b.width {
			_, err = tx.exec(ctx, b.single, b.args[i:i+b.width]...)
		}
	}
	clear(b.args) // holds no text past its rows
	b.args = b.args[:0]
	return err
}
