package main

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A hook runs on one P unless GOMAXPROCS is set; other commands keep
// the runtime's choice.
func TestHook_OneProc(t *testing.T) {
	old := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
	store := filepath.Join(t.TempDir(), "store")
	run := func(stdin string, args ...string) int {
		t.Helper()
		runtime.GOMAXPROCS(4)
		var errOut bytes.Buffer
		a := newApp(strings.NewReader(stdin), &bytes.Buffer{}, &errOut)
		if code := a.execute(context.Background(), append([]string{"--store", store}, args...)); code != 0 || errOut.Len() > 0 {
			t.Fatalf("recall %v: exit %d: %s", args, code, errOut.String())
		}
		return runtime.GOMAXPROCS(0)
	}
	hook := `{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"hi"}`
	t.Setenv("GOMAXPROCS", "")
	if got := run(hook, "hook", "claude"); got != 1 {
		t.Errorf("hook: GOMAXPROCS %d, want 1", got)
	}
	if got := run("", "put", "--text", "Deploys go through staging first"); got != 4 {
		t.Errorf("put: GOMAXPROCS %d, want it left at 4", got)
	}
	t.Setenv("GOMAXPROCS", "4")
	if got := run(hook, "hook", "claude"); got != 4 {
		t.Errorf("hook with GOMAXPROCS set: %d, want it left at 4", got)
	}
}
