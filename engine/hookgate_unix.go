//go:build unix

package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// HookGate is what a hook process runs before it opens the store in dir:
// it waits for the upkeep's transaction under way, if any, and keeps the
// upkeep from beginning another until release is called (or the process
// ends).
func HookGate(dir string) (release func()) {
	if dir == "" {
		return func() {}
	}
	gate, err := os.OpenFile(filepath.Join(dir, HookGateFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return func() {} // no store directory yet: no upkeep either
	}
	// Held exclusively only while the upkeep passes from it to the
	// second file: a few system calls.
	if flock(gate, syscall.LOCK_SH) != nil {
		gate.Close()
		return func() {}
	}
	if w, err := os.OpenFile(filepath.Join(dir, UpkeepWriteFile), os.O_RDWR|os.O_CREATE, 0o600); err == nil {
		_ = flock(w, syscall.LOCK_SH) // the end of the upkeep's transaction
		w.Close()                     // closing lets go
	}
	return func() {
		// When the last hook finished, for the upkeep's quiet period:
		// the file's modification time, set while the hook still holds
		// it, so the upkeep learns it without taking the lock.
		now := time.Now()
		_ = os.Chtimes(gate.Name(), now, now)
		gate.Close()
	}
}

// upkeepGatePoll is how often the upkeep looks again whether the hooks
// at work have finished.
const upkeepGatePoll = 2 * time.Millisecond

// upkeepQuiet is how long no hook must have been at work before the
// upkeep begins a transaction. An agent's hooks come in bursts (a tool
// call's PreToolUse and PostToolUse, parallel calls, the next turn's
// prompt), a few ms apart: the upkeep used to begin a transaction in the
// gap after each, and the next hook of the burst waited for it (a 4h
// bucket: 3–7 ms, 15–35 ms at load 5 as the upkeep runs at nice 10).
// Past the burst it goes on; a hook that comes later than this after
// the previous one can still meet one transaction, and no longer waits
// than before.
var upkeepQuiet = 20 * time.Millisecond

// upkeepWriteGate is the upkeep process's recall.StoreOptions.BeforeWrite
// on the store in dir: it waits until no hook has been at work for
// upkeepQuiet, then holds UpkeepWriteFile for the transaction (done lets
// go).
//
// It learns when the last hook finished from HookGateFile's modification
// time (each hook sets it as it lets go) and takes the file's lock only
// to go ahead: a try that succeeded and let go again would hold off a
// hook arriving in between for as long as the upkeep, at nice 10 on a
// busy machine, waited for the CPU.
func upkeepWriteGate(dir string) func(ctx context.Context) (done func(), err error) {
	if dir == "" {
		return nil
	}
	var lastHook time.Time // when a hook was last seen at work
	var mu sync.Mutex
	return func(ctx context.Context) (func(), error) {
		mu.Lock()
		defer mu.Unlock()
		gate, err := os.OpenFile(filepath.Join(dir, HookGateFile), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return func() {}, nil
		}
		defer gate.Close()
		for {
			if fi, err := gate.Stat(); err == nil && fi.ModTime().After(lastHook) {
				lastHook = fi.ModTime()
			}
			// A time ahead of now (a clock moved back) counts as quiet.
			if since := time.Since(lastHook); since < 0 || since >= upkeepQuiet {
				err := flock(gate, syscall.LOCK_EX|syscall.LOCK_NB)
				if err == nil {
					break
				}
				if !errors.Is(err, syscall.EWOULDBLOCK) {
					return func() {}, nil
				}
				lastHook = time.Now() // one is at work
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(upkeepGatePoll):
			}
		}
		w, err := os.OpenFile(filepath.Join(dir, UpkeepWriteFile), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return func() {}, nil
		}
		if flock(w, syscall.LOCK_EX) != nil {
			w.Close()
			return func() {}, nil
		}
		return func() { w.Close() }, nil // the deferred close lets go of the gate
	}
}

// flock is syscall.Flock on f, retried when a signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
