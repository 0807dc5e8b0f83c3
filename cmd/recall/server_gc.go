package main

import (
	"os"
	"runtime/debug"
)

// lowHeapGCPercent is the garbage collector's target for the commands
// whose live heap stays a few MiB whatever the store's size (the vector
// index and SQLite's page caches live outside it): the heap may grow to
// five times what is live before a collection.
//
//   - 'recall serve' collected every few searches at the default (100);
//     at 400 a hybrid search at 100,000 memories costs about 9% less CPU,
//     for some tens of MiB more heap at most.
//   - A process that answers once and exits (a search, a hook) collected
//     twice per hybrid search, some 5% of its CPU, to free memory the exit
//     frees anyway; at 400 the first collection waits for 16 MiB.
//
// Commands whose heap grows with their input (import, export, bench)
// keep the default.
const lowHeapGCPercent = 400

// lowHeapGC sets lowHeapGCPercent, unless GOGC says otherwise.
func lowHeapGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(lowHeapGCPercent)
	}
}
