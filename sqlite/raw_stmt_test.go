package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TestDriverValue_AsDatabaseSQL: the values execRaw hands the driver are
// those database/sql would, for every type a write of a memory uses, and
// any other type is left to database/sql.
func TestDriverValue_AsDatabaseSQL(t *testing.T) {
	for _, a := range []any{nil, int64(-3), 7, 0.25, 1.0, true, false, "", "text", []byte("blob"), time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC),
		sql.NullString{}, sql.NullString{String: "k", Valid: true}, sql.NullInt64{}, sql.NullInt64{Int64: 42, Valid: true}} {
		got, ok := driverValue(a)
		if !ok {
			t.Errorf("%T %v: not converted", a, a)
			continue
		}
		want := a
		if v, isValuer := a.(driver.Valuer); isValuer {
			want, _ = v.Value()
		}
		want, err := driver.DefaultParameterConverter.ConvertValue(want)
		if err != nil {
			t.Fatal(err)
		}
		if b, isBytes := want.([]byte); isBytes {
			if string(got.([]byte)) != string(b) {
				t.Errorf("%T %v: %v, want %v", a, a, got, want)
			}
			continue
		}
		if got != want {
			t.Errorf("%T %v: %#v (%T), want %#v (%T)", a, a, got, got, want, want)
		}
	}
	for _, a := range []any{int32(1), uint8(2), json32(3), &struct{}{}} {
		if _, ok := driverValue(a); ok {
			t.Errorf("%T converted; database/sql should", a)
		}
	}
}

type json32 int32

// TestExecRaw_PreparedOncePerImport: the statements of an import run on
// the driver's connection, each prepared once in the transaction and
// closed when it ends, so none outlives it (database/sql, which knows
// nothing of them, may discard the connection later: SQLite would keep it
// open, with its files, for as long as a statement of it is not
// finalized). A single write runs through database/sql's statements.
func TestExecRaw_PreparedOncePerImport(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	const put = `INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)`
	var kept *Tx
	err := db.update(ctx, func(tx *Tx) error {
		kept = tx
		tx.rows = newPendingRows() // an import
		defer func() { tx.rows = nil }()
		for i := range 3 {
			if _, err := tx.exec(ctx, put, "k", int64(i)); err != nil {
				return err
			}
			if len(tx.raw) != 1 || tx.raw[put] == nil {
				t.Fatalf("statement %d: %d prepared on the driver's connection, want this one", i, len(tx.raw))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if kept.raw != nil {
		t.Errorf("%d statements left open after the import's transaction", len(kept.raw))
	}
	err = db.update(ctx, func(tx *Tx) error {
		kept = tx
		_, err := tx.exec(ctx, put, "k", int64(9))
		return err
	})
	if err != nil || kept.raw != nil {
		t.Errorf("a single write: %v, %d statements on the driver's connection", err, len(kept.raw))
	}
	var v string
	if err := db.read.QueryRow(`SELECT value FROM store_meta WHERE key = 'k'`).Scan(&v); err != nil || v != "9" {
		t.Errorf("value %q (%v), want 9", v, err)
	}
}

// A writer connection that database/sql discards outside a transaction
// (a statement interrupted by its context ended) closes for good: no
// statement of an earlier import keeps it, with its files, open.
func TestExecRaw_DiscardedWriterCloses(t *testing.T) {
	dir := t.TempDir()
	db := NewDB(filepath.Join(dir, "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := NewMemoryService(db)
	ctx := context.Background()
	var batch []*recall.Memory
	for i := range 200 {
		batch = append(batch, &recall.Memory{Title: fmt.Sprintf("m%d", i), Content: "content", Tags: []string{"t"}})
	}
	if _, err := s.ImportMemories(ctx, batch); err != nil {
		t.Fatal(err)
	}
	open := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd here")
		}
		n := 0
		for _, e := range ents {
			if target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && strings.HasPrefix(target, dir) {
				n++
			}
		}
		return n
	}
	before := open()
	for range 3 {
		// Discard the writer as database/sql does an invalid one.
		c, err := db.write.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.Raw(func(any) error { return driver.ErrBadConn })
		c.Close()
		if _, err := s.ImportMemories(ctx, batch[:10]); err != nil {
			t.Fatal(err)
		}
	}
	if after := open(); after > before {
		t.Errorf("files of the store open: %d before, %d after three writers were discarded", before, after)
	}
}

// TestExecRaw_OtherTypesThroughDatabaseSQL: a statement with an argument
// execRaw does not convert runs through database/sql, with the same
// effect.
func TestExecRaw_OtherTypesThroughDatabaseSQL(t *testing.T) {
	db := openDB(t)
	err := db.update(context.Background(), func(tx *Tx) error {
		if _, ran, _ := tx.execRaw(context.Background(), `INSERT INTO store_meta (key, value) VALUES (?, ?)`, []any{"a", json32(5)}); ran {
			t.Error("an int32 argument ran on the driver's connection")
		}
		_, err := tx.exec(context.Background(), `INSERT INTO store_meta (key, value) VALUES (?, ?)`, "a", json32(5))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var v string
	if err := db.read.QueryRow(`SELECT value FROM store_meta WHERE key = 'a'`).Scan(&v); err != nil || v != "5" {
		t.Errorf("value %q (%v), want 5", v, err)
	}
}

// driverValue gives what database/sql gives only while the driver
// converts nothing itself: a driver that checks or converts arguments
// (NamedValueChecker, ColumnConverter) would see other values through
// database/sql than through execRaw. This fails on a driver upgrade that
// brings either.
func TestExecRaw_DriverConvertsNothing(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	c, err := db.write.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Raw(func(dc any) error {
		if _, ok := dc.(driver.NamedValueChecker); ok {
			t.Error("the driver's connection checks argument values")
		}
		st, err := dc.(driver.Conn).Prepare(`SELECT ?`)
		if err != nil {
			return err
		}
		defer st.Close()
		if _, ok := st.(driver.NamedValueChecker); ok {
			t.Error("the driver's statement checks argument values")
		}
		// driver.ColumnConverter, deprecated, named by its method.
		if _, ok := st.(interface {
			ColumnConverter(int) driver.ValueConverter
		}); ok {
			t.Error("the driver's statement converts argument values")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
