package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/synth"
)

// ingestFiguresEnv names a store directory that TestIngestFigures writes
// into: a copy of a kept 'recall bench scale' store, since the test adds
// memories to it. It is skipped otherwise.
const ingestFiguresEnv = "RECALL_INGEST_STORE"

// TestIngestFigures writes batches of 1,000 of the scale benchmark's
// memories, numbered on from RECALL_INGEST_FROM (100,000: the store's
// size, so that every memory is new), into the store RECALL_INGEST_STORE
// names, as 'recall bench scale' does, RECALL_INGEST_BATCHES of them
// (40), and logs the CPU, wall time, allocations and collections per
// memory: the marginal cost of a batched write at that size, which a
// CPU or memory profile (go test -cpuprofile, -memprofile) can break
// down.
func TestIngestFigures(t *testing.T) {
	dir := os.Getenv(ingestFiguresEnv)
	if dir == "" {
		t.Skip(ingestFiguresEnv + " names no store to write into")
	}
	from, batches := envInt(t, "RECALL_INGEST_FROM", 100000), envInt(t, "RECALL_INGEST_BATCHES", 40)
	ctx := context.Background()
	a := newApp(nil, os.Stdout, os.Stderr)
	a.eng.StoreFlag = dir
	if err := a.eng.OpenForWrite(ctx); err != nil {
		t.Fatal(err)
	}
	defer a.close()
	keepGC(t)
	defer bulkWriteGC()() // as 'bench scale' and 'import' do
	corpus := synth.New(1, synth.DefaultVocab)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var cpu, wall time.Duration
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for b := range batches {
		ms := make([]*recall.Memory, 1000)
		for j := range ms {
			i := from + b*len(ms) + j
			title, content := corpus.Memory(i)
			ms[j] = &recall.Memory{Title: title, Content: content, OccurredAt: base.Add(time.Duration(i) * 10 * time.Minute), Tags: []string{fmt.Sprintf("t%d", i%50)}}
		}
		c0, t0 := processCPU(t), time.Now()
		if _, err := a.eng.Import(ctx, ms); err != nil {
			t.Fatal(err)
		}
		cpu, wall = cpu+processCPU(t)-c0, wall+time.Since(t0)
	}
	runtime.ReadMemStats(&m1)
	n := float64(batches * 1000)
	t.Logf("%d memories from %d: %.1f CPU-µs and %.1f wall-µs a memory (%.0f/s); %.0f bytes and %.1f allocations a memory (the corpus's included); %d collections",
		batches*1000, from, float64(cpu.Nanoseconds())/1e3/n, float64(wall.Nanoseconds())/1e3/n, n/wall.Seconds(),
		float64(m1.TotalAlloc-m0.TotalAlloc)/n, float64(m1.Mallocs-m0.Mallocs)/n, m1.NumGC-m0.NumGC)
}
