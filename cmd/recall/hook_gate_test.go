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
		if !a.eng.ShortLived || a.eng.YieldToHooks {
			t.Errorf("the hook's engine: ShortLived %v, YieldToHooks %v; want true, false", a.eng.ShortLived, a.eng.YieldToHooks)
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
	if fi, err := os.Stat(filepath.Join(store, engine.DBFile+"-wal")); err != nil || fi.Size() == 0 {
		t.Fatalf("the hook's close checkpointed the WAL away (%v)", err)
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

// The upkeep process yields to hooks and checkpoints as it closes.
func TestHookUpkeep_YieldsToHooks(t *testing.T) {
	ctx := context.Background()
	store := newHookStore(t)
	a := newApp(nil, io.Discard, io.Discard)
	if code := a.execute(ctx, []string{"--store", store, "hook", "upkeep"}); code != 0 {
		t.Fatalf("hook upkeep: exit %d", code)
	}
	if !a.eng.YieldToHooks || a.eng.ShortLived {
		t.Fatalf("the upkeep's engine: YieldToHooks %v, ShortLived %v; want true, false", a.eng.YieldToHooks, a.eng.ShortLived)
	}
}
