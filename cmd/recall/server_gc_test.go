package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// A server collects less often than the default, unless GOGC is set.
func TestServerGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "")
	lowHeapGC()
	if got := debug.SetGCPercent(100); got != lowHeapGCPercent {
		t.Errorf("GC percent %d, want %d", got, lowHeapGCPercent)
	}
	t.Setenv("GOGC", "150")
	lowHeapGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent %d, want it left alone (100)", got)
	}
}

// A search and a hook, processes that answer once and exit, collect
// less often than the default; other commands keep it.
func TestOneShotGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "")
	store := filepath.Join(t.TempDir(), "store")
	run := func(stdin string, args ...string) int {
		t.Helper()
		debug.SetGCPercent(100)
		var errOut bytes.Buffer
		a := newApp(strings.NewReader(stdin), io.Discard, &errOut)
		if code := a.execute(context.Background(), append([]string{"--store", store}, args...)); code != 0 {
			t.Fatalf("recall %v: exit %d: %s", args, code, errOut.String())
		}
		return debug.SetGCPercent(100)
	}
	if got := run("", "put", "--text", "Deploys go through staging first"); got != 100 {
		t.Errorf("put: GC percent %d, want the default", got)
	}
	if got := run("", "search", "--mode", "bm25", "staging"); got != lowHeapGCPercent {
		t.Errorf("search: GC percent %d, want %d", got, lowHeapGCPercent)
	}
	if got := run(`{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"hi"}`, "hook", "claude"); got != lowHeapGCPercent {
		t.Errorf("hook: GC percent %d, want %d", got, lowHeapGCPercent)
	}
}

// keepGC restores the collector's settings when the test ends.
func keepGC(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(percent)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

// gcSettings reads the GC percent and memory limit and puts the defaults
// back (no limit is math.MaxInt64).
func gcSettings() (int, int64) {
	return debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
}

// A bulk write collects at lowHeapGCPercent under bulkWriteMemoryLimit,
// unless the user set GOGC or GOMEMLIMIT: then the runtime's settings
// (which it read from them) stay.
func TestBulkWriteGC(t *testing.T) {
	keepGC(t)
	for _, env := range []struct{ gogc, limit string }{{"", ""}, {"150", ""}, {"", "1GiB"}, {"off", "200MiB"}} {
		t.Setenv("GOGC", env.gogc)
		t.Setenv("GOMEMLIMIT", env.limit)
		gcSettings()
		stop := bulkWriteGC()
		percent, limit := gcSettings()
		stop()
		want, wantLimit := 100, int64(math.MaxInt64)
		if env.gogc == "" && env.limit == "" {
			want, wantLimit = lowHeapGCPercent, bulkWriteMemoryLimit
		}
		if percent != want || limit != wantLimit {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: GC percent %d, limit %d; want %d, %d", env.gogc, env.limit, percent, limit, want, wantLimit)
		}
	}
}

// 'recall import' of memories and 'recall bench scale' set the bulk
// write's collector; an import
// of observations (which reads its whole file first) and a put keep the
// default.
func TestImportGC(t *testing.T) {
	keepGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	mems := filepath.Join(dir, "memories.jsonl")
	obs := filepath.Join(dir, "observations.jsonl")
	if err := os.WriteFile(mems, []byte(`{"title":"Deploys","content":"Deploys go through staging first"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(obs, []byte(`{"at":"2026-01-02T03:04:05Z","type":"note","content":"staging was slow"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, int64) {
		t.Helper()
		gcSettings()
		var errOut bytes.Buffer
		a := newApp(nil, io.Discard, &errOut)
		if code := a.execute(context.Background(), append([]string{"--store", store}, args...)); code != 0 {
			t.Fatalf("recall %v: exit %d: %s", args, code, errOut.String())
		}
		return gcSettings()
	}
	if p, l := run("import", mems); p != lowHeapGCPercent || l != bulkWriteMemoryLimit {
		t.Errorf("import: GC percent %d, limit %d; want %d, %d", p, l, lowHeapGCPercent, bulkWriteMemoryLimit)
	}
	if p, l := run("bench", "scale", "--memories", "20", "--queries", "1", "--ingest-only", "--clients", "0", "--cold-runs", "0", "--import-rss=false", "--embedder", "none"); p != lowHeapGCPercent || l != bulkWriteMemoryLimit {
		t.Errorf("bench scale: GC percent %d, limit %d; want %d, %d", p, l, lowHeapGCPercent, bulkWriteMemoryLimit)
	}
	if p, l := run("import", "--observations", obs); p != 100 || l != math.MaxInt64 {
		t.Errorf("import --observations: GC percent %d, limit %d; want the defaults", p, l)
	}
	if p, l := run("put", "--text", "Rollbacks need a ticket"); p != 100 || l != math.MaxInt64 {
		t.Errorf("put: GC percent %d, limit %d; want the defaults", p, l)
	}
}

// A bulk write whose live heap passes half the limit (a batch of very
// large memories) goes back to the default collector, which would
// otherwise run ever more often as the heap nears the limit; below that
// it keeps the bulk write's settings.
func TestBulkWriteGC_LargeLiveHeap(t *testing.T) {
	keepGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	stop := bulkWriteGC()
	defer stop()
	runtime.GC()
	if bulkWriteHeapTooLarge() {
		t.Fatal("the test's own live heap is past the ceiling")
	}
	if percent, limit := debug.SetGCPercent(lowHeapGCPercent), debug.SetMemoryLimit(-1); percent != lowHeapGCPercent || limit != bulkWriteMemoryLimit {
		t.Fatalf("small heap: GC percent %d, limit %d; want %d, %d", percent, limit, lowHeapGCPercent, bulkWriteMemoryLimit)
	}
	live := make([]byte, bulkWriteLiveCeiling+(4<<20))
	for i := range live {
		live[i] = byte(i)
	}
	runtime.GC()
	if !bulkWriteHeapTooLarge() {
		t.Fatal("a live heap past the ceiling was not seen")
	}
	runtime.KeepAlive(live)
	if percent, limit := gcSettings(); percent != 100 || limit != math.MaxInt64 {
		t.Errorf("large heap: GC percent %d, limit %d; want the defaults", percent, limit)
	}
}
