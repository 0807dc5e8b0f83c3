package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the recall binary built from this package
// as the "recall" command inside scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"recall": func() { os.Exit(run()) },
	})
}

// TestScripts runs the CLI scripts in testdata/script: each is a txtar file
// with commands and their expected output, run against the real binary in a
// fresh temporary directory with a private HOME and no RECALL_STORE.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/script",
		Setup: scriptEnv,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"lockstore":  lockStore,
			"storeholds": storeHolds,
		},
	})
}

// scriptEnv gives every script a private HOME and global store, and a fixed
// author for new memories.
func scriptEnv(env *testscript.Env) error {
	env.Setenv("HOME", env.WorkDir+"/home")
	env.Setenv("XDG_DATA_HOME", env.WorkDir+"/home/.local/share")
	env.Setenv("RECALL_AGENT", "tester")
	return nil
}
