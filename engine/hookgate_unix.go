//go:build unix

package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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
	return func() { gate.Close() }
}

// upkeepGatePoll is how often the upkeep looks again whether the hooks
// at work have finished.
const upkeepGatePoll = 2 * time.Millisecond

// upkeepWriteGate is the upkeep process's recall.StoreOptions.BeforeWrite
// on the store in dir: it waits until no hook is at work, then holds
// UpkeepWriteFile for the transaction (done lets go).
func upkeepWriteGate(dir string) func(ctx context.Context) (done func(), err error) {
	if dir == "" {
		return nil
	}
	return func(ctx context.Context) (func(), error) {
		gate, err := os.OpenFile(filepath.Join(dir, HookGateFile), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return func() {}, nil
		}
		defer gate.Close()
		for {
			err := flock(gate, syscall.LOCK_EX|syscall.LOCK_NB)
			if err == nil {
				break
			}
			if !errors.Is(err, syscall.EWOULDBLOCK) {
				return func() {}, nil
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
