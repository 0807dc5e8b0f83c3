package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// TestHook_UpkeepAfterReply: a SessionStart hook replies without running
// the session upkeep (a rollup backlog cost it more than the rest of the
// session start) and leaves it to a detached 'recall hook upkeep'
// process, which rolls the backlog up and records the complete run:
// nothing is lost.
func TestHook_UpkeepAfterReply(t *testing.T) {
	t.Setenv(hookUpkeepEnv, "")
	store := newBacklogStore(t)
	if a := runSessionStartHook(t, store, "s1"); !a.eng.UpkeepDeferred() {
		t.Fatal("the hook ran the session upkeep before replying")
	}

	// The detached process does it.
	stamp := filepath.Join(store, engine.UpkeepStampFile)
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(stamp); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no complete upkeep run was recorded after the hook (no upkeep process ran, or it failed)")
		}
		time.Sleep(50 * time.Millisecond)
	}
	checkRolledUp(t, store)
}

// newBacklogStore creates a store holding a rollup backlog (two
// observations ten days old). Not in t.TempDir: a detached upkeep process
// may still be closing the store when the test ends, so removal is
// retried.
func newBacklogStore(t *testing.T) string {
	t.Helper()
	store, err := os.MkdirTemp("", "recall-hook-upkeep-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for i := 0; i < 100 && os.RemoveAll(store) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	ctx := context.Background()
	seed := newApp(nil, io.Discard, io.Discard)
	seed.eng.StoreFlag = store
	if err := seed.openForWrite(ctx); err != nil {
		t.Fatal(err)
	}
	defer seed.close()
	day := seed.eng.Now().Truncate(24*time.Hour).AddDate(0, 0, -10)
	if err := seed.eng.Observe(ctx, []*recall.Observation{
		{Type: recall.ObsCommand, Session: "old", Content: "make build", At: day},
		{Type: recall.ObsCommand, Session: "old", Content: "go test ./...", At: day.Add(time.Minute)},
	}); err != nil {
		t.Fatal(err)
	}
	return store
}

// runSessionStartHook runs 'recall hook claude' in process with a
// SessionStart payload for session id and checks that it replied with a
// context.
func runSessionStartHook(t *testing.T, store, id string) *app {
	t.Helper()
	var out, errOut bytes.Buffer
	a := newApp(strings.NewReader(`{"session_id":"`+id+`","hook_event_name":"SessionStart","source":"startup"}`), &out, &errOut)
	if code := a.execute(context.Background(), []string{"--store", store, "hook", "claude"}); code != 0 {
		t.Fatalf("hook: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), `"hookEventName":"SessionStart"`) {
		t.Fatalf("hook replied %q", out.String())
	}
	return a
}

// checkRolledUp fails t unless the store holds rollups: the backlog was
// rolled up.
func checkRolledUp(t *testing.T, store string) {
	t.Helper()
	ctx := context.Background()
	check := newApp(nil, io.Discard, io.Discard)
	check.eng.StoreFlag = store
	if err := check.open(ctx); err != nil {
		t.Fatal(err)
	}
	defer check.close()
	svc, err := check.eng.Rollups()
	if err != nil {
		t.Fatal(err)
	}
	if all, err := svc.FindRollups(ctx, recall.RollupFilter{}); err != nil || len(all) == 0 {
		t.Fatalf("after the upkeep process: %d rollups (%v), want the backlog rolled up", len(all), err)
	}
}
