package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the recall binary built from this package
// as the "recall" command inside scripts.
func TestMain(m *testing.M) {
	// Hooks run their session upkeep before replying here, in their own
	// process: a detached upkeep process could still be writing to a
	// test's store as the test removes it. TestHook_UpkeepAfterReply runs
	// the detached way.
	os.Setenv(hookUpkeepEnv, "inline")
	// A hook run in process would leave the whole test binary on one P
	// (oneProc), which it heeds only while GOMAXPROCS is unset;
	// TestHook_OneProc unsets it to see that.
	if os.Getenv("GOMAXPROCS") == "" {
		os.Setenv("GOMAXPROCS", strconv.Itoa(runtime.GOMAXPROCS(0)))
	}
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
			"provider":   embedProvider,
			"storeholds": storeHolds,
		},
		Condition: scriptCondition,
	})
}

// scriptEnv gives every script a private HOME and global store, and a fixed
// author for new memories.
func scriptEnv(env *testscript.Env) error {
	env.Setenv("HOME", env.WorkDir+"/home")
	env.Setenv("XDG_DATA_HOME", env.WorkDir+"/home/.local/share")
	env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/home/.config")
	env.Setenv("RECALL_AGENT", "tester")
	env.Setenv(hookUpkeepEnv, "inline") // see TestMain
	env.Setenv("RECALL_TSCLIENT", tsClientDir())
	return nil
}

// scriptCondition answers the scripts' own conditions: [tsclient] holds
// when the MCP TypeScript SDK is installed for mcp_tsclient.txtar.
func scriptCondition(cond string) (bool, error) {
	if cond == "tsclient" {
		return tsClientDir() != "", nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// tsClientDir is a directory holding client.mjs beside an installed MCP
// TypeScript SDK: $RECALL_TSCLIENT (set by .ci/run), else
// mcp/testdata/tsclient after a local npm ci there; "" when neither is.
func tsClientDir() string {
	for _, dir := range []string{os.Getenv("RECALL_TSCLIENT"), filepath.Join("..", "..", "mcp", "testdata", "tsclient")} {
		if dir == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "client.mjs")); err == nil {
			abs, err := filepath.Abs(dir)
			if err == nil {
				return abs
			}
		}
	}
	return ""
}
