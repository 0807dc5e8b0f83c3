package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// A server collects less often than the default, unless GOGC is set.
func TestServerGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "")
	lowHeapGC()
	if got := debug.SetGCPercent(100); got != lowHeapGCPercent {
		t.Errorf("GC percent %d, want %d", got, lowHeapGCPercent)
	}
	t.Setenv("GOGC", "150")
	lowHeapGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent %d, want it left alone (100)", got)
	}
}

// A search and a hook, processes that answer once and exit, collect
// less often than the default; other commands keep it.
func TestOneShotGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "")
	store := filepath.Join(t.TempDir(), "store")
	run := func(stdin string, args ...string) int {
		t.Helper()
		debug.SetGCPercent(100)
		var errOut bytes.Buffer
		a := newApp(strings.NewReader(stdin), io.Discard, &errOut)
		if code := a.execute(context.Background(), append([]string{"--store", store}, args...)); code != 0 {
			t.Fatalf("recall %v: exit %d: %s", args, code, errOut.String())
		}
		return debug.SetGCPercent(100)
	}
	if got := run("", "put", "--text", "Deploys go through staging first"); got != 100 {
		t.Errorf("put: GC percent %d, want the default", got)
	}
	if got := run("", "search", "--mode", "bm25", "staging"); got != lowHeapGCPercent {
		t.Errorf("search: GC percent %d, want %d", got, lowHeapGCPercent)
	}
	if got := run(`{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"hi"}`, "hook", "claude"); got != lowHeapGCPercent {
		t.Errorf("hook: GC percent %d, want %d", got, lowHeapGCPercent)
	}
}
