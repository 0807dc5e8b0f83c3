package main

import (
	"database/sql"
	"time"

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
