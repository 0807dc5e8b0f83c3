package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TestTx_EndedContextStopsStatements: the statements of exec and
// QueryRowContext run under a context that never ends (see Tx.quiet), but
// one ended between two statements still refuses the next, and the write
// commits nothing.
func TestTx_EndedContextStopsStatements(t *testing.T) {
	db := openDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var execErr, queryErr error
	err := db.update(ctx, func(tx *Tx) error {
		if err := insertMemory(ctx, tx, &recall.Memory{Title: "first", Content: "written before the end"}, "put"); err != nil {
			t.Fatalf("before the end: %v", err)
		}
		cancel()
		_, execErr = tx.exec(ctx, tagOneSQL, "t", 1)
		var n int
		queryErr = tx.QueryRowContext(ctx, `SELECT count(*) FROM memories`).Scan(&n)
		return execErr
	})
	if !errors.Is(execErr, context.Canceled) || !errors.Is(queryErr, context.Canceled) {
		t.Errorf("after the end: exec %v, query %v; want context.Canceled", execErr, queryErr)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("update: %v, want context.Canceled", err)
	}
	var n int
	if err := db.read.QueryRow(`SELECT count(*) FROM memories`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d memories (%v) after a cancelled write, want 0", n, err)
	}
}

// TestTx_QuietWhileLive: while the caller's context has not ended, a
// statement runs under one that cannot end, so the driver watches
// nothing; once it has, under the caller's.
func TestTx_QuietWhileLive(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tx := &Tx{still: context.WithoutCancel(ctx)}
	if q := tx.quiet(ctx); q.Done() != nil {
		t.Error("live context: the statement's context can end")
	}
	cancel()
	if q := tx.quiet(ctx); q != ctx {
		t.Error("ended context: the statement does not run under it")
	}
}

// TestTx_NoWriteAfterTheTransactionEnded: once the context a transaction
// began under has ended, database/sql rolls the transaction back on its
// own; a statement run after that on the driver's connection, even under
// a context that has not ended, must fail, not write and commit a row
// outside any transaction.
func TestTx_NoWriteAfterTheTransactionEnded(t *testing.T) {
	db := openDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	tx, err := db.beginWrite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	cancel()
	for i := 0; ; i++ { // until database/sql has rolled it back
		if _, err := tx.Tx.ExecContext(context.Background(), `SELECT 1`); errors.Is(err, sql.ErrTxDone) {
			break
		}
		if i > 1000 {
			t.Fatal("the transaction was not rolled back")
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := tx.exec(context.Background(), tagOneSQL, "late", 1); err == nil {
		t.Error("a statement ran after the transaction ended")
	}
	var n int
	if err := db.read.QueryRow(`SELECT count(*) FROM memory_tags`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d tag rows (%v) written outside the transaction, want 0", n, err)
	}
}
