// Package enginetest opens engines on temporary stores, for the tests of
// the engine and of the interfaces that take it.
package enginetest

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/recall-mem/recall/engine"
)

// Open opens an engine built with parts on a new project store (a .recall
// directory in a temporary directory, so a project's managed files go
// beside it), with its warnings going to log, and checks the store's
// integrity when the test ends.
func Open(tb testing.TB, parts engine.Parts, log io.Writer) *engine.Engine {
	tb.Helper()
	e := engine.New(parts)
	e.StoreFlag = filepath.Join(tb.TempDir(), engine.ProjectDir)
	e.Log = log
	if err := e.OpenForWrite(context.Background()); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := e.Check(context.Background()); err != nil {
			tb.Errorf("integrity: %v", err)
		}
		e.Close()
	})
	return e
}
