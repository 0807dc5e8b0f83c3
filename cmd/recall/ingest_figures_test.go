package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/synth"
)

// TestIngestFigures writes batches of 1,000 of the scale benchmark's
// memories into the store directory RECALL_INGEST_STORE names (a copy
// of a kept 'recall bench scale' store: it adds to it; skipped without),
// as 'bench scale' does, numbered on from RECALL_INGEST_FROM (100,000:
// the store's size, so that every memory is new), RECALL_INGEST_BATCHES
// of them (40), and logs the CPU, wall time, allocations and collections
// per memory: the marginal cost of a batched write at that size, which a
// CPU or memory profile (go test -cpuprofile, -memprofile) breaks down.
// It writes under a context that can be cancelled, as the CLI's can.
func TestIngestFigures(t *testing.T) {
	store, ok := os.LookupEnv("RECALL_INGEST_STORE")
	if !ok {
		t.Skip("RECALL_INGEST_STORE names no store to write into")
	}
	// Opened as 'bench scale' opens its store, with its collector.
	b, err := newApp(nil, io.Discard, os.Stderr).benchOpen(context.Background(), store, "")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	keepGC(t)
	defer bulkWriteGC()()
	from, batches := envInt(t, "RECALL_INGEST_FROM", 100000), envInt(t, "RECALL_INGEST_BATCHES", 40)
	// A context that can end, as the CLI's (signal.NotifyContext) can:
	// the driver watches such a context during every statement.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	corpus := synth.New(1, synth.DefaultVocab)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var cpu, wall time.Duration
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for k := range batches {
		ms := make([]*recall.Memory, 1000)
		for j := range ms {
			i := from + k*len(ms) + j
			title, content := corpus.Memory(i)
			ms[j] = &recall.Memory{Title: title, Content: content, OccurredAt: base.Add(time.Duration(i) * 10 * time.Minute), Tags: []string{fmt.Sprintf("t%d", i%50)}}
		}
		c0, t0 := processCPU(t), time.Now()
		if _, err := b.Memories.ImportMemories(ctx, ms); err != nil {
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
