package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall/engine"
)

// TestHook_ReadsOnTheWriter: a hook opens its store to read on the
// connection it writes on (one SQLite connection a process), except a
// session start that runs its upkeep inline, whose sweep sets pragmas on
// the one writer connection.
func TestHook_ReadsOnTheWriter(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	var lastOut string
	for _, c := range []struct {
		payload, upkeep string
		want            bool
	}{
		{`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_response":{"stdout":"ok"}}`, "", true},
		{`{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"hello"}`, "inline", true},
		{`{"session_id":"s2","hook_event_name":"SessionStart","source":"startup"}`, "inline", false},
	} {
		t.Setenv(hookUpkeepEnv, c.upkeep)
		var out, errOut bytes.Buffer
		a := newApp(strings.NewReader(c.payload), &out, &errOut)
		if code := a.execute(context.Background(), []string{"--store", store, "hook", "claude"}); code != 0 || errOut.Len() > 0 {
			t.Fatalf("hook: exit %d: %s", code, errOut.String())
		}
		lastOut = out.String()
		if a.eng.ReadsOnWriter != c.want {
			t.Errorf("%s (upkeep %q): ReadsOnWriter %v, want %v", c.payload[:60], c.upkeep, a.eng.ReadsOnWriter, c.want)
		}
		if log, err := os.ReadFile(filepath.Join(store, engine.HookLogFile)); err == nil {
			t.Fatalf("the hook logged a failure: %s", log)
		}
	}
	if want := `"hookEventName":"SessionStart"`; !strings.Contains(lastOut, want) {
		t.Fatalf("the session start replied %q", lastOut)
	}
}
