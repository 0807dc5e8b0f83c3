package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"path/filepath"
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

// TestExecRaw_PreparedOncePerConnection: the statements of a write are
// run on the driver's connection, prepared by the first write and reused
// by the next; closing the store closes them.
func TestExecRaw_PreparedOncePerConnection(t *testing.T) {
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	s := NewMemoryService(db)
	ctx := context.Background()
	put := func(title string) {
		if _, err := s.PutMemory(ctx, &recall.Memory{Title: title, Content: "content of " + title, Tags: []string{"t"}}); err != nil {
			t.Fatal(err)
		}
	}
	put("first")
	db.raw.mu.Lock()
	n, first := len(db.raw.m), db.raw.m[insertPlainMemorySQL]
	db.raw.mu.Unlock()
	if n == 0 || first == nil {
		t.Fatalf("%d statements prepared on the driver's connection, the memory's insert %v", n, first)
	}
	put("second")
	db.raw.mu.Lock()
	again, same := len(db.raw.m), db.raw.m[insertPlainMemorySQL] == first
	db.raw.mu.Unlock()
	if again != n || !same {
		t.Errorf("second write: %d statements (first %d), the same insert: %v", again, n, same)
	}
	var count int
	if err := db.read.QueryRow(`SELECT count(*) FROM memories m JOIN memory_tags t ON t.seq = m.seq`).Scan(&count); err != nil || count != 2 {
		t.Errorf("%d tagged memories (%v), want 2", count, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db.raw.any() {
		t.Error("statements left open after Close")
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

// brokenConn is a driver connection that says it is no longer fit for
// use, with statements that record being closed.
type brokenConn struct{ driver.Conn }

func (brokenConn) IsValid() bool { return false }

type closedStmt struct {
	driver.StmtExecContext
	closed *bool
}

func (s closedStmt) Close() error { *s.closed = true; return nil }

// TestRawStmts_ClosedWithAnInvalidConnection: the statements of a
// connection the driver calls invalid, which database/sql closes as it
// goes back to the pool, are closed first; those of a valid one are
// kept.
func TestRawStmts_ClosedWithAnInvalidConnection(t *testing.T) {
	var r rawStmts
	var closed bool
	conn := brokenConn{}
	r.conn, r.m = conn, map[string]driver.StmtExecContext{"q": closedStmt{closed: &closed}}
	r.closeIfInvalid(struct{ driver.Conn }{}) // another, valid as far as it says
	if closed || !r.any() {
		t.Fatal("statements closed for another connection")
	}
	r.closeIfInvalid(conn)
	if !closed || r.any() {
		t.Errorf("invalid connection: closed %v, statements left %v", closed, r.any())
	}
}
