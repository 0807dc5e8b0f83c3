package main

import (
	"os"
	"runtime/debug"
)

// serverGCPercent is the garbage collector's target for 'recall serve':
// the heap may grow to five times what is live before a collection. A
// server's live heap is a few MiB (the vector index and SQLite's page
// caches live outside it), so at the default (100) it collected every
// few searches; at 400 a hybrid search at 100,000 memories costs about
// 9% less CPU, for some tens of MiB more heap at most.
const serverGCPercent = 400

// serverGC sets serverGCPercent, unless GOGC says otherwise.
func serverGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serverGCPercent)
	}
}
