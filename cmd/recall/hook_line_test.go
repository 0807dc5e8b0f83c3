package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// A hook's command line builds the hook command alone (an agent runs one
// process per event); every other command line, a hook's help included,
// builds the whole tree. A hook runs the same either way.
func TestHookLineBuildsTheHookCommandOnly(t *testing.T) {
	for _, c := range []struct {
		args []string
		hook bool
	}{
		{[]string{"hook", "claude"}, true},
		{[]string{"--store", "/tmp/s", "hook", "claude"}, true},
		{[]string{"--store=/tmp/s", "--global", "hook", "upkeep"}, true},
		{[]string{"hook"}, false},
		{[]string{"hook", "claude", "--help"}, false},
		{[]string{"hook", "--help"}, false},
		{[]string{"help", "hook", "claude"}, false},
		{[]string{"__complete", "hook", "claude"}, false},
		{[]string{"--store", "hook", "claude"}, false},
		{[]string{"--store"}, false},
		{[]string{"search", "hook", "claude"}, false},
		{[]string{"hook", "claude", "extra"}, false},
	} {
		if got := hookLine(c.args); got != c.hook {
			t.Errorf("hookLine(%q) = %v, want %v", c.args, got, c.hook)
		}
		root := newApp(nil, io.Discard, io.Discard).rootCommandFor(c.args)
		n := len(root.Commands())
		if c.hook && n != 1 {
			t.Errorf("%q built %d commands, want the hook command alone", c.args, n)
		}
		if !c.hook && n < 10 {
			t.Errorf("%q built %d commands, want the whole tree", c.args, n)
		}
	}

	// The same hook through the whole tree and through the hook command alone.
	t.Setenv(hookUpkeepEnv, "inline")
	store := filepath.Join(t.TempDir(), "store")
	payload := `{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}`
	var replies []string
	for _, whole := range []bool{true, false} {
		var out, errOut bytes.Buffer
		a := newApp(strings.NewReader(payload), &out, &errOut)
		args := []string{"--store", store, "hook", "claude"}
		root := a.rootCommandFor(args)
		if whole {
			root = a.rootCommand()
		}
		root.SetArgs(args)
		root.SetIn(a.stdin)
		root.SetOut(a.stdout)
		root.SetErr(a.stderr)
		err := root.ExecuteContext(context.Background())
		a.close()
		if err != nil || errOut.Len() > 0 {
			t.Fatalf("hook (whole tree %v): %v %s", whole, err, errOut.String())
		}
		replies = append(replies, out.String())
	}
	if !strings.Contains(replies[0], `"hookEventName":"SessionStart"`) || replies[0] != replies[1] {
		t.Fatalf("the hook replied %q through the whole tree and %q through the hook command alone", replies[0], replies[1])
	}
}
