//go:build !unix

package engine

import (
	"context"
	"os"
	"time"
)

// LockFile is a no-op where advisory file locks are not wired up; the
// store's own transactions still serialise every write.
func LockFile(ctx context.Context, path string, wait time.Duration) (unlock func(), err error) {
	return func() {}, nil
}

// tryLockFile holds nothing where advisory locks are not wired up.
func tryLockFile(string) (*os.File, error) { return nil, nil }

// adoptLock takes nothing over where advisory locks are not wired up.
func adoptLock(uintptr, string) *os.File { return nil }

// releaseLock closes f.
func releaseLock(f *os.File) { f.Close() }
