package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestForgetScripts runs the purge, sweep and stats scripts in
// testdata/forget. They need observations with chosen times, types and
// statuses, which no command records yet, so they get a script command
// of their own: seed-observations STOREDIR FILE.JSONL.
func TestForgetScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/forget",
		Setup: scriptEnv,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"seed-observations": seedObservationsCmd,
			"storeholds":        storeHolds,
		},
	})
}

// seedObservationsCmd records the observations of a JSON Lines file (the
// fields of recall.Observation) in the store in a directory.
func seedObservationsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: seed-observations STOREDIR FILE.JSONL")
	}
	f, err := os.Open(ts.MkAbs(args[1]))
	ts.Check(err)
	defer f.Close()
	var obs []*recall.Observation
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var o recall.Observation
		ts.Check(json.Unmarshal(sc.Bytes(), &o))
		obs = append(obs, &o)
	}
	ts.Check(sc.Err())
	db := sqlite.NewDB(filepath.Join(ts.MkAbs(args[0]), dbFile))
	ts.Check(db.Open())
	defer db.Close()
	ts.Check(sqlite.NewObservationService(db).RecordObservations(context.Background(), obs))
}
