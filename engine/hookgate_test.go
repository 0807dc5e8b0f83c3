//go:build unix

package engine_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// blocked reports whether ch stays empty for a while: a check that can
// only pass wrongly (on a slow machine), never fail wrongly.
func blocked(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return false
	case <-time.After(50 * time.Millisecond):
		return true
	}
}

// upkeepTurn asks gate for the upkeep's next transaction aside: upkeepIn
// closes when it is granted, and then done ends it.
func upkeepTurn(t *testing.T, gate func(context.Context) (func(), error)) (upkeepIn chan struct{}, done *func()) {
	upkeepIn, done = make(chan struct{}), new(func())
	go func() {
		d, err := gate(context.Background())
		if err != nil {
			t.Error(err)
		}
		*done = d
		close(upkeepIn)
	}()
	return upkeepIn, done
}

// A hook waits for the upkeep's transaction under way and no longer; the
// upkeep begins no transaction while a hook is at work, and goes on when
// it is done.
func TestHookGate_HooksGoBetweenUpkeepTransactions(t *testing.T) {
	dir := t.TempDir()
	gate := engine.UpkeepWriteGateFor(dir)
	ctx := context.Background()

	done, err := gate(ctx) // the upkeep inside a transaction
	if err != nil {
		t.Fatal(err)
	}
	hookIn := make(chan func())
	go func() { hookIn <- engine.HookGate(dir) }()
	select {
	case r := <-hookIn:
		r()
		t.Fatal("a hook went on while the upkeep was inside a transaction")
	case <-time.After(50 * time.Millisecond):
	}
	done() // the transaction ends: the hook goes on at once
	release := <-hookIn

	upkeepIn, next := upkeepTurn(t, gate)
	if !blocked(upkeepIn) {
		t.Fatal("the upkeep began a transaction while a hook was at work")
	}
	// A second hook meanwhile goes on too: the upkeep waits for both.
	second := engine.HookGate(dir)
	release()
	if !blocked(upkeepIn) {
		t.Fatal("the upkeep began a transaction while the second hook was at work")
	}
	second()
	<-upkeepIn
	(*next)()
}

// Hooks come in bursts a few ms apart: the upkeep begins no transaction
// until none has been at work for a while (upkeepQuiet), so the next
// hook of a burst does not meet one; then it goes on.
func TestHookGate_UpkeepWaitsOutABurstOfHooks(t *testing.T) {
	engine.SetUpkeepQuiet(t, 300*time.Millisecond)
	dir := t.TempDir()
	gate := engine.UpkeepWriteGateFor(dir)
	release := engine.HookGate(dir)
	upkeepIn, done := upkeepTurn(t, gate)
	if !blocked(upkeepIn) {
		t.Fatal("the upkeep began a transaction while a hook was at work")
	}
	release()
	if !blocked(upkeepIn) {
		t.Fatal("the upkeep began a transaction right after a hook, in its burst")
	}
	// The next hook of the burst goes on without waiting for the upkeep.
	hookIn := make(chan func())
	go func() { hookIn <- engine.HookGate(dir) }()
	select {
	case r := <-hookIn:
		r()
	case <-time.After(time.Second):
		t.Fatal("the next hook of a burst waited for the upkeep")
	}
	<-upkeepIn // past the burst
	(*done)()
}

// The upkeep learns when the last hook finished from the hook itself,
// without taking the gate's lock while it waits: a hook that was done
// before the upkeep looked (never seen at work) still starts the quiet
// period.
func TestHookGate_UpkeepQuietAfterAHookItNeverSaw(t *testing.T) {
	engine.SetUpkeepQuiet(t, 300*time.Millisecond)
	dir := t.TempDir()
	engine.HookGate(dir)() // a hook came and went
	upkeepIn, done := upkeepTurn(t, engine.UpkeepWriteGateFor(dir))
	if !blocked(upkeepIn) {
		t.Fatal("the upkeep began a transaction right after a hook it did not see")
	}
	<-upkeepIn
	(*done)()
}

// The upkeep's wait for the hooks ends with its context: the write fails
// (and a paced upkeep resumes later), it never hangs.
func TestHookGate_UpkeepWaitEndsWithItsContext(t *testing.T) {
	dir := t.TempDir()
	release := engine.HookGate(dir)
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := engine.UpkeepWriteGateFor(dir)(ctx); err == nil {
		t.Fatal("the upkeep's gate let it write while a hook was at work")
	}
}

// An engine opened with YieldToHooks (the upkeep process) rolls nothing
// up while a hook is at work on its store, and all of it once the hook
// is done.
func TestEngine_UpkeepYieldsToHooks(t *testing.T) {
	ctx := context.Background()
	seed := roomyEngine(t)
	day := seed.Now().Truncate(24*time.Hour).AddDate(0, 0, -3)
	if err := seed.Observe(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "old", Content: "make build", At: day}}); err != nil {
		t.Fatal(err)
	}
	e := engine.New(testParts())
	e.StoreFlag, e.Log, e.YieldToHooks = seed.StoreFlag, &bytes.Buffer{}, true
	if err := e.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	e.Config.Rollup.SessionBudgetMS = 60_000

	release := engine.HookGate(e.Location.Dir)
	if rep := e.OpportunisticRollup(ctx, 100*time.Millisecond); rep == nil || rep.Done || len(rep.Buckets) != 0 {
		t.Fatalf("while a hook was at work the upkeep rolled up %+v, want nothing done", rep)
	}
	release()
	if rep := e.OpportunisticRollup(ctx, 0); rep == nil || !rep.Done || rep.Buckets[recall.Bucket4h] == 0 {
		t.Fatalf("once the hook was done the upkeep rolled up %+v, want the backlog done", rep)
	}
}
