package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
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
// (which it read from them) stay. Its end puts back what it found.
func TestBulkWriteGC(t *testing.T) {
	keepGC(t)
	for _, env := range []struct{ gogc, limit string }{{"", ""}, {"150", ""}, {"", "1GiB"}, {"off", "200MiB"}} {
		t.Setenv("GOGC", env.gogc)
		t.Setenv("GOMEMLIMIT", env.limit)
		debug.SetGCPercent(123)
		debug.SetMemoryLimit(1 << 40)
		done := bulkWriteGC()
		percent, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
		debug.SetGCPercent(percent)
		done()
		want, wantLimit := 123, int64(1<<40)
		if env.gogc == "" && env.limit == "" {
			want, wantLimit = lowHeapGCPercent, bulkWriteMemoryLimit
		}
		if percent != want || limit != wantLimit {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: GC percent %d, limit %d; want %d, %d", env.gogc, env.limit, percent, limit, want, wantLimit)
		}
		if percent, limit := gcSettings(); percent != 123 || limit != 1<<40 {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: after the bulk write GC percent %d, limit %d; want 123, %d back", env.gogc, env.limit, percent, limit, int64(1<<40))
		}
	}
}

// gcSampler is an input that notes the collector's settings when the
// command reads it, and then reads as r.
type gcSampler struct {
	r       io.Reader
	percent int
	limit   int64
}

func (g *gcSampler) Read(p []byte) (int, error) {
	if g.percent == 0 {
		g.percent = debug.SetGCPercent(-1)
		debug.SetGCPercent(g.percent)
		g.limit = debug.SetMemoryLimit(-1)
	}
	return g.r.Read(p)
}

// 'recall import' of memories reads its input with the bulk write's
// collector, and the batches of 'recall bench scale' are written with it
// (its report says so) while the rest of its run has the default; an
// import of observations (which reads its whole file first) and a put
// keep the default throughout.
func TestImportGC(t *testing.T) {
	keepGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	run := func(stdin io.Reader, args ...string) (string, int, int64) {
		t.Helper()
		gcSettings()
		var out, errOut bytes.Buffer
		a := newApp(stdin, &out, &errOut)
		if code := a.execute(context.Background(), append([]string{"--store", store}, args...)); code != 0 {
			t.Fatalf("recall %v: exit %d: %s", args, code, errOut.String())
		}
		p, l := gcSettings()
		return out.String(), p, l
	}
	mems := &gcSampler{r: strings.NewReader(`{"title":"Deploys","content":"Deploys go through staging first"}` + "\n")}
	if _, p, l := run(mems, "import", "-"); mems.percent != lowHeapGCPercent || mems.limit != bulkWriteMemoryLimit || p != 100 || l != math.MaxInt64 {
		t.Errorf("import: GC percent %d, limit %d while reading; %d, %d after; want %d, %d, then the defaults",
			mems.percent, mems.limit, p, l, lowHeapGCPercent, bulkWriteMemoryLimit)
	}
	out, p, l := run(nil, "bench", "scale", "--memories", "20", "--queries", "1", "--ingest-only", "--clients", "0", "--cold-runs", "0", "--import-rss=false", "--embedder", "none", "--json")
	var rep struct {
		Config struct {
			Percent int   `json:"batched_gc_percent"`
			Limit   int64 `json:"batched_memory_limit"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bench scale --json: %v: %s", err, out)
	}
	if rep.Config.Percent != lowHeapGCPercent || rep.Config.Limit != bulkWriteMemoryLimit || p != 100 || l != math.MaxInt64 {
		t.Errorf("bench scale: batches at GC percent %d, limit %d; %d, %d after; want %d, %d, then the defaults",
			rep.Config.Percent, rep.Config.Limit, p, l, lowHeapGCPercent, bulkWriteMemoryLimit)
	}
	obs := &gcSampler{r: strings.NewReader(`{"at":"2026-01-02T03:04:05Z","type":"note","content":"staging was slow"}` + "\n")}
	if _, p, l := run(obs, "import", "--observations", "-"); obs.percent != 100 || obs.limit != math.MaxInt64 || p != 100 || l != math.MaxInt64 {
		t.Errorf("import --observations: GC percent %d, limit %d while reading; want the defaults", obs.percent, obs.limit)
	}
	if _, p, l := run(nil, "put", "--text", "Rollbacks need a ticket"); p != 100 || l != math.MaxInt64 {
		t.Errorf("put: GC percent %d, limit %d; want the defaults", p, l)
	}
}

// A bulk write whose live heap passes half the limit (a batch of very
// large memories) puts back the collector it found, which would otherwise
// run ever more often as the heap nears the limit; below that it keeps
// the bulk write's settings. A write that starts past the ceiling sets
// nothing.
func TestBulkWriteGC_LargeLiveHeap(t *testing.T) {
	keepGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(123)
	debug.SetMemoryLimit(1 << 40)
	done := bulkWriteGC()
	defer done()
	runtime.GC()
	if liveHeapPastCeiling() {
		t.Fatal("the test's own live heap is past the ceiling")
	}
	if percent, limit := readGC(); percent != lowHeapGCPercent || limit != bulkWriteMemoryLimit {
		t.Fatalf("small heap: GC percent %d, limit %d; want %d, %d", percent, limit, lowHeapGCPercent, bulkWriteMemoryLimit)
	}
	live := make([]byte, bulkWriteLiveCeiling+(4<<20))
	for i := range live {
		live[i] = byte(i)
	}
	runtime.GC()
	if !liveHeapPastCeiling() {
		t.Fatal("a live heap past the ceiling was not seen")
	}
	for wait := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		percent, limit := readGC()
		if percent == 123 && limit == 1<<40 {
			break
		}
		if time.Since(wait) > 10*time.Second {
			t.Fatalf("large heap: GC percent %d, limit %d; want the settings found, 123 and %d", percent, limit, int64(1<<40))
		}
	}
	done()
	if percent, limit := readGC(); percent != 123 || limit != 1<<40 {
		t.Errorf("after done: GC percent %d, limit %d; want 123, %d", percent, limit, int64(1<<40))
	}
	// Still past the ceiling: a new bulk write leaves the collector alone.
	again := bulkWriteGC()
	if percent, limit := readGC(); percent != 123 || limit != 1<<40 {
		t.Errorf("bulk write started past the ceiling set GC percent %d, limit %d", percent, limit)
	}
	again()
	runtime.KeepAlive(live)
}

// readGC reads the GC percent and memory limit without setting them.
func readGC() (int, int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}
