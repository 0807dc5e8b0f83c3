//go:build !unix

package engine

import "context"

// HookGate is a no-op where the store's lock files are not used.
func HookGate(string) (release func()) { return func() {} }

func upkeepWriteGate(string) func(ctx context.Context) (done func(), err error) { return nil }
