package main

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/pack"
	"github.com/rogpeppe/go-internal/testscript"
)

// lockStore is the script command "lockstore DB SECONDS": it holds the
// write lock of the database file DB for SECONDS from the test process,
// as a long import in another process would.
func lockStore(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: lockstore DB SECONDS")
	}
	d, err := time.ParseDuration(args[1] + "s")
	ts.Check(err)
	db, err := sql.Open("sqlite", "file:"+ts.MkAbs(args[0])+"?_txlock=exclusive")
	ts.Check(err)
	tx, err := db.Begin()
	ts.Check(err)
	_, err = tx.Exec(`INSERT INTO store_meta (key, value) VALUES ('lockstore', 'held')`)
	ts.Check(err)
	time.AfterFunc(d, func() {
		tx.Rollback()
		db.Close()
	})
}

func TestBytesFirst_BuildContext(t *testing.T) {
	words := func(n int) []recall.ContextItem {
		return []recall.ContextItem{{ID: "a", Kind: "note", Text: strings.Repeat("word ", n)}}
	}
	build := func(items []recall.ContextItem) bytesFirst {
		s := pack.Section{Name: "s", Title: "S", Fetch: func(context.Context, recall.ContextRequest) ([]recall.ContextItem, error) { return items, nil }}
		return bytesFirst{cheap: &pack.Builder{Sections: []pack.Section{s}, Tokens: byteCounter{}}, exact: pack.NewBuilder(s)}
	}
	t.Run("FitsInBytes", func(t *testing.T) {
		p, err := build(words(10)).BuildContext(context.Background(), recall.ContextRequest{Budget: 200})
		if err != nil || p.Dropped != 0 || p.Tokens != len(p.Text) {
			t.Fatalf("pack %+v, %v: want the byte-counted pack", p, err)
		}
	})
	t.Run("FitsOnlyInTokens", func(t *testing.T) {
		p, err := build(words(100)).BuildContext(context.Background(), recall.ContextRequest{Budget: 200})
		if err != nil || p.Dropped != 0 || p.Tokens >= len(p.Text) || p.Tokens > 200 {
			t.Fatalf("pack %+v, %v: want the token-counted pack", p, err)
		}
	})
}
