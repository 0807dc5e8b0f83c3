package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkHook_PostToolUse runs `recall hook claude` in-process for one
// PostToolUse payload: everything a hook process does after start-up
// (config, opening the store, recording, closing).
func BenchmarkHook_PostToolUse(b *testing.B) {
	store := filepath.Join(b.TempDir(), "store")
	payload := `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_response":{"stdout":"` +
		strings.Repeat(`ok  \tpkg/module\t0.412s\n`, 60) + `"}}`
	run := func() {
		var errOut bytes.Buffer
		a := newApp(strings.NewReader(payload), io.Discard, &errOut)
		if code := a.execute(context.Background(), []string{"--store", store, "hook", "claude"}); code != 0 || errOut.Len() > 0 {
			b.Fatalf("exit %d: %s", code, errOut.String())
		}
	}
	run() // create and migrate the store outside the timing
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run()
	}
}
