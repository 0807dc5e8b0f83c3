//go:build !unix

package engine

import (
	"context"
	"time"
)

// LockFile is a no-op where advisory file locks are not wired up; the
// store's own transactions still serialise every write.
func LockFile(ctx context.Context, path string, wait time.Duration) (unlock func(), err error) {
	return func() {}, nil
}
