//go:build unix

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

// A SessionStart hook that leaves the upkeep hands its lock to the
// upkeep process it starts: the lock is held from the moment the hook
// returns, so a session start right after it leaves no second process
// (one that would only open the store to find the lock taken). The
// process does the work, records it and lets the lock go.
func TestHook_HandsTheUpkeepLockToItsProcess(t *testing.T) {
	t.Setenv(hookUpkeepEnv, "")
	// Not t.TempDir: the detached process may still be closing the store
	// when the test ends, so removal is retried.
	store, err := os.MkdirTemp("", "recall-hook-lock-")
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
	day := seed.eng.Now().Truncate(24*time.Hour).AddDate(0, 0, -10)
	if err := seed.eng.Observe(ctx, []*recall.Observation{
		{Type: recall.ObsCommand, Session: "old", Content: "make build", At: day},
		{Type: recall.ObsCommand, Session: "old", Content: "go test ./...", At: day.Add(time.Minute)},
	}); err != nil {
		t.Fatal(err)
	}
	seed.close()

	start := func(id string) *app {
		t.Helper()
		var out, errOut bytes.Buffer
		a := newApp(strings.NewReader(`{"session_id":"`+id+`","hook_event_name":"SessionStart","source":"startup"}`), &out, &errOut)
		if code := a.execute(ctx, []string{"--store", store, "hook", "claude"}); code != 0 {
			t.Fatalf("hook: exit %d: %s", code, errOut.String())
		}
		if !strings.Contains(out.String(), `"hookEventName":"SessionStart"`) {
			t.Fatalf("hook replied %q", out.String())
		}
		return a
	}
	lockPath := filepath.Join(store, engine.UpkeepLockFile)
	if a := start("s1"); !a.eng.UpkeepDeferred() {
		t.Fatal("the hook ran the session upkeep before replying")
	}
	if unlock, err := engine.LockFile(ctx, lockPath, 0); err == nil {
		unlock()
		t.Fatal("the upkeep lock was free after the hook that left the upkeep returned: the next session start would start a second upkeep process")
	}
	if a := start("s2"); a.eng.UpkeepDeferred() {
		t.Fatal("a session start right after the first left a second upkeep process")
	}

	// The handed-over process does the work and lets the lock go.
	stamp := filepath.Join(store, engine.UpkeepStampFile)
	deadline := time.Now().Add(time.Minute)
	for {
		_, err := os.Stat(stamp)
		if err == nil {
			if unlock, err := engine.LockFile(ctx, lockPath, 0); err == nil {
				unlock()
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no complete upkeep run recorded with the lock let go (stamp: %v)", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
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
