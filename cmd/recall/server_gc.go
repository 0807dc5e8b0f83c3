package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
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
// Commands whose heap grows with their input (export, an import of
// observations) keep the default.
const lowHeapGCPercent = 400

// bulkWriteMemoryLimit caps the memory the Go runtime holds (heap and
// the rest) during a bulk write, which collects at lowHeapGCPercent below
// it. What a memory import or 'bench scale' keeps live is a batch or two
// (6-13 MiB through an import of 100,000), so the collector runs when the
// heap reaches the limit, some three times what is live instead of two:
// batched writes at 100,000 cost 8-10% less CPU, and the import of
// 300,000 memories 7%, its peak RSS going from 111 to 124 MiB (a limit
// of 64 MiB took it to 149, a GC percent of 200 with no limit to 147:
// issue 17's ceiling is 150). SQLite's page caches and the program's own
// pages are outside the Go heap (docs/performance.md, ingestgc).
const bulkWriteMemoryLimit = 40 << 20

// bulkWriteLiveCeiling is the live heap past which a bulk write goes back
// to the default collector: with as much live as half the limit, the
// collector would run more often than at the default, and with the limit
// itself exceeded (a batch of very large memories) it would run without
// pause.
const bulkWriteLiveCeiling = bulkWriteMemoryLimit / 2

// lowHeapGC sets lowHeapGCPercent, unless GOGC says otherwise.
func lowHeapGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(lowHeapGCPercent)
	}
}

// bulkWriteGC sets the collector of a bulk write (a memory import, the
// batched writes of 'bench scale'): lowHeapGCPercent under
// bulkWriteMemoryLimit, until the live heap passes bulkWriteLiveCeiling
// (checked first and then every 100 ms). A GOGC or GOMEMLIMIT of the
// user's wins: either one leaves both settings to the runtime, which has
// read them already. Past the ceiling, and when done ends the watch, the
// settings found are put back.
func bulkWriteGC() (done func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" || liveHeapPastCeiling() {
		return func() {}
	}
	percent := debug.SetGCPercent(lowHeapGCPercent)
	limit := debug.SetMemoryLimit(bulkWriteMemoryLimit)
	restore := func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	restored := false // owned by the watch until stopped is closed
	go func() {
		defer close(stopped)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if liveHeapPastCeiling() {
					restore()
					restored = true
					<-stop
					return
				}
			}
		}
	}()
	return sync.OnceFunc(func() {
		close(stop)
		<-stopped // the watch sets nothing after this
		if !restored {
			restore()
		}
	})
}

// liveHeapPastCeiling reports whether the live heap, as the last
// collection measured it, is past bulkWriteLiveCeiling: with that much
// live, the bulk write's limit would make the collector run more often
// than the default does, or without pause.
func liveHeapPastCeiling() bool {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > bulkWriteLiveCeiling
}
