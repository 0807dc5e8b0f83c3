//go:build !unix

package main

import (
	"context"
	"time"
)

// lockFile is a no-op where advisory file locks are not wired up; the
// store's own transactions still serialise every write.
func lockFile(ctx context.Context, path string, wait time.Duration) (unlock func(), err error) {
	return func() {}, nil
}
