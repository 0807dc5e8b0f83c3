package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall/sentence"
)

// TestEncoderLoadsOnlyForVectors: hooks, writes and full-text searches
// never decode the sentence encoder (tens of MB and milliseconds a
// process); a search by meaning does, once.
func TestEncoderLoadsOnlyForVectors(t *testing.T) {
	enc := &sentence.Encoder{}
	saved := builtinEncoder
	builtinEncoder = func() *sentence.Encoder { return enc }
	t.Cleanup(func() { builtinEncoder = saved })

	store := filepath.Join(t.TempDir(), "store")
	run := func(stdin string, args ...string) {
		t.Helper()
		var errOut bytes.Buffer
		a := newApp(strings.NewReader(stdin), io.Discard, &errOut)
		if code := a.execute(context.Background(), append([]string{"--store", store}, args...)); code != 0 {
			t.Fatalf("recall %v: exit %d: %s", args, code, errOut.String())
		}
	}
	run("", "put", "--text", "Deploys go through staging first, then a canary that bakes for an hour")
	for _, payload := range []string{
		`{"session_id":"s","hook_event_name":"SessionStart","source":"startup"}`,
		`{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"how do we ship a release"}`,
		`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_response":{"stdout":"ok"}}`,
	} {
		run(payload, "hook", "claude")
	}
	run("", "search", "--mode", "bm25", "staging canary")
	run("", "list")
	if enc.Loaded() {
		t.Fatal("the encoder was loaded by a hook, a write or a full-text search")
	}
	run("", "search", "how do we ship a release")
	if !enc.Loaded() {
		t.Fatal("a hybrid search did not load the encoder")
	}
}
