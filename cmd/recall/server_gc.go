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
func serverGC() { setGCPercent(serverGCPercent) }

// oneShotGCPercent is the target of a process that answers one request
// and exits (a search, a hook): its heap peaks at a few MiB, so at the
// default target (a 4 MiB heap before the first collection) a hybrid
// search collected twice, some 5% of its CPU, to free memory the exit
// frees anyway. At 400 the first collection waits for 16 MiB.
const oneShotGCPercent = 400

// oneShotGC sets oneShotGCPercent, unless GOGC says otherwise. Commands
// whose heap grows with their input (import, export, bench) keep the
// default.
func oneShotGC() { setGCPercent(oneShotGCPercent) }

func setGCPercent(p int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(p)
	}
}
