//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// newHookStore creates an empty store in a temporary directory.
func newHookStore(t *testing.T) string {
	t.Helper()
	store := t.TempDir()
	seed := newApp(nil, io.Discard, io.Discard)
	seed.eng.StoreFlag = store
	if err := seed.openForWrite(context.Background()); err != nil {
		t.Fatal(err)
	}
	seed.close()
	return store
}

// A hook that meets the session upkeep inside a transaction waits for
// its end (the upkeep's lock file, not SQLite's polling), records its
// payload as soon as the transaction ends, and closes the store without
// checkpointing the WAL: the observation is in the WAL, read back by the
// next process.
func TestHook_WaitsForTheUpkeepsTransactionOnly(t *testing.T) {
	t.Setenv(hookUpkeepEnv, "inline")
	ctx := context.Background()
	store := newHookStore(t)

	// An upkeep inside a transaction holds this file.
	w, err := os.OpenFile(filepath.Join(store, engine.UpkeepWriteFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := syscall.Flock(int(w.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}

	finished := make(chan int, 1)
	var errOut bytes.Buffer
	go func() {
		a := newApp(strings.NewReader(`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make gated"},"tool_response":{"stdout":"ok"}}`), io.Discard, &errOut)
		code := a.execute(ctx, []string{"--store", store, "hook", "claude"})
		if a.eng.YieldToHooks {
			t.Error("the hook's engine yields to hooks: only the upkeep's does")
		}
		finished <- code
	}()
	select {
	case <-finished:
		t.Fatal("the hook finished while the upkeep was inside a transaction")
	case <-time.After(100 * time.Millisecond):
	}
	w.Close() // the transaction ends
	if code := <-finished; code != 0 {
		t.Fatalf("hook: exit %d: %s", code, errOut.String())
	}
	// The store at rest is its database file alone: the hook's close
	// checkpointed its writes into it and removed the WAL, so a copy or a
	// move of the file misses nothing, and a WAL is never left to be
	// replayed into another database made at the same path.
	if fi, err := os.Stat(filepath.Join(store, engine.DBFile+"-wal")); err == nil && fi.Size() > 0 {
		t.Fatalf("the hook left a WAL of %d bytes behind", fi.Size())
	}

	check := newApp(nil, io.Discard, io.Discard)
	check.eng.StoreFlag = store
	if err := check.open(ctx); err != nil {
		t.Fatal(err)
	}
	defer check.close()
	obs, _, err := check.eng.FindObservations(ctx, recall.ObservationFilter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range obs {
		found = found || strings.Contains(o.Content, "make gated")
	}
	if !found {
		t.Fatalf("the hook's observation is not in the store: %d observations", len(obs))
	}
}

// The upkeep process yields to hooks.
func TestHookUpkeep_YieldsToHooks(t *testing.T) {
	ctx := context.Background()
	store := newHookStore(t)
	a := newApp(nil, io.Discard, io.Discard)
	if code := a.execute(ctx, []string{"--store", store, "hook", "upkeep"}); code != 0 {
		t.Fatalf("hook upkeep: exit %d", code)
	}
	if !a.eng.YieldToHooks {
		t.Fatal("the upkeep's engine does not yield to hooks")
	}
}
