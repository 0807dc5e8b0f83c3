//go:build unix

package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/recall-mem/recall"
)

// LockFile takes an exclusive advisory lock on path (created 0600), so
// that two processes never edit the managed files of one project at once.
// It retries until ctx ends or wait passes, then returns EUNAVAILABLE. The
// lock goes with the process if it dies.
func LockFile(ctx context.Context, path string, wait time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, recall.Errorf(recall.EUNAVAILABLE, "Another recall sync, maintain or entry command is changing this project's memory files: retry when it has finished.")
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// tryLockFile takes the exclusive lock on path without waiting and
// returns the open file that holds it: the lock lasts while that file, or
// a copy of its descriptor in another process, stays open. Held by
// another, it is EUNAVAILABLE.
func tryLockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, recall.Errorf(recall.EUNAVAILABLE, "%s is held by another process", path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return f, nil
}

// adoptLock returns the descriptor fd, handed over by another process,
// as a file if it is the file at path and holds its lock (taking it again
// on the descriptor that holds it is a no-op, a refusal on any other);
// nil otherwise, and fd is left alone.
func adoptLock(fd uintptr, path string) *os.File {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(fd), &st); err != nil {
		return nil
	}
	pi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	ps, ok := pi.Sys().(*syscall.Stat_t)
	if !ok || ps.Dev != st.Dev || ps.Ino != st.Ino {
		return nil
	}
	if syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return nil
	}
	// Handed over without close-on-exec (that is how it crossed the exec):
	// set it again, or any program this process starts would keep the
	// store's upkeep lock alive after the upkeep ends.
	syscall.CloseOnExec(int(fd))
	return os.NewFile(fd, path)
}

// releaseLock lets go of the lock f holds and closes it.
func releaseLock(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	f.Close()
}
