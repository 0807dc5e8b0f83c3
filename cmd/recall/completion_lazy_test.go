package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// Completions are registered only for a completion request: a command
// line that runs a command (a hook, a search) does not walk every
// command's flags for them, and a completion request still completes.
func TestCompletionsRegisteredOnlyWhenCompleting(t *testing.T) {
	a := newApp(strings.NewReader(""), io.Discard, io.Discard)
	root := a.rootCommand()
	get, _, err := root.Find([]string{"get"})
	if err != nil {
		t.Fatal(err)
	}
	if get.ValidArgsFunction != nil {
		t.Fatal("building the commands registered completions")
	}
	for _, args := range [][]string{{"__complete", "get", ""}, {"__completeNoDesc", "get", ""}, {"get", "x"}} {
		if got := completing(args); got != strings.HasPrefix(args[0], "__complete") {
			t.Errorf("completing(%q) = %v", args, got)
		}
	}
	store := filepath.Join(t.TempDir(), "store")
	put := newApp(strings.NewReader(""), io.Discard, io.Discard)
	if code := put.execute(context.Background(), []string{"--store", store, "put", "--key", "deploy-rule", "--text", "Deploys go through staging."}); code != 0 {
		t.Fatalf("put: exit %d", code)
	}
	var out bytes.Buffer
	c := newApp(strings.NewReader(""), &out, io.Discard)
	if code := c.execute(context.Background(), []string{"__complete", "--store", store, "get", "dep"}); code != 0 {
		t.Fatalf("__complete: exit %d", code)
	}
	if !strings.Contains(out.String(), "deploy-rule") {
		t.Fatalf("completion did not offer the key: %q", out.String())
	}
}
