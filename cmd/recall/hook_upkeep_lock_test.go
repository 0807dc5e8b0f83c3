//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall/engine"
)

// A SessionStart hook that leaves the upkeep hands its lock to the
// upkeep process it starts: the lock is held from the moment the hook
// returns, so a session start right after it leaves no second process
// (one that would only open the store to find the lock taken). The
// process does the work, records it and lets the lock go.
func TestHook_HandsTheUpkeepLockToItsProcess(t *testing.T) {
	t.Setenv(hookUpkeepEnv, "")
	ctx := context.Background()
	store := newBacklogStore(t)
	lockPath := filepath.Join(store, engine.UpkeepLockFile)
	if a := runSessionStartHook(t, store, "s1"); !a.eng.UpkeepDeferred() {
		t.Fatal("the hook ran the session upkeep before replying")
	}
	if unlock, err := engine.LockFile(ctx, lockPath, 0); err == nil {
		unlock()
		t.Fatal("the upkeep lock was free after the hook that left the upkeep returned: the next session start would start a second upkeep process")
	}
	if a := runSessionStartHook(t, store, "s2"); a.eng.UpkeepDeferred() {
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
	checkRolledUp(t, store)
}
