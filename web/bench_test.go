package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/synth"
)

// BenchmarkPages measures each page's server time, wall and CPU (the
// process's, per view), over a store of RECALL_WEB_BENCH_MEMORIES synthetic
// memories (default 10,000; the target is 100,000):
//
//	RECALL_WEB_BENCH_MEMORIES=100000 go test ./web -run '^$' -bench Pages -benchtime 20x
func BenchmarkPages(b *testing.B) {
	n := 10000
	if s := os.Getenv("RECALL_WEB_BENCH_MEMORIES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			b.Fatalf("RECALL_WEB_BENCH_MEMORIES=%q: want a positive count", s)
		}
	}
	e := newEngine(b)
	ctx := context.Background()
	corpus := synth.New(1, synth.DefaultVocab)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	// A working set is bounded by its word budget: a few dozen entries,
	// whatever the store's size (maintenance's checks compare them in
	// pairs). The rest are registers and archive.
	const working = 40
	tiers := []string{recall.TierRegister, recall.TierRegister, recall.TierArchive}
	for lo := 0; lo < n; lo += 2000 {
		ms := make([]*recall.Memory, 0, 2000)
		for i := lo; i < min(lo+2000, n); i++ {
			title, content := corpus.Memory(i)
			ms = append(ms, &recall.Memory{Title: title, Content: content, OccurredAt: base.Add(time.Duration(i) * time.Minute),
				Tags: []string{fmt.Sprintf("t%d", i%50)}, Tier: tiers[i%len(tiers)]})
			if i < working {
				ms[len(ms)-1].Tier = recall.TierWorking
			}
		}
		if _, err := e.Import(ctx, ms); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := e.StartSession(ctx, &recall.Session{ID: "bench"}); err != nil {
		b.Fatal(err)
	}
	var rec []*recall.Observation
	for i := range 300 {
		rec = append(rec, &recall.Observation{At: base.Add(time.Duration(i) * time.Second), Type: recall.ObsCommand, Session: "bench", Content: fmt.Sprintf("step %d", i)})
	}
	if err := e.Observe(ctx, rec); err != nil {
		b.Fatal(err)
	}
	one, _, err := e.List(ctx, recall.MemoryFilter{Limit: 1})
	if err != nil || len(one) == 0 {
		b.Fatal("no memory to open", err)
	}
	query, _ := corpus.Query(0, n)
	h, err := New(BackendOf(e), Options{Loopback: true})
	if err != nil {
		b.Fatal(err)
	}
	// The overview runs the doctor's checks once per healthTTL: time the
	// page as it is seen between checks, and the checks on their own.
	start := time.Now()
	h.health(ctx, true)
	b.Logf("doctor's checks at %d memories: %v", n, time.Since(start))
	for _, p := range []struct{ name, path string }{
		{"Overview", "/"},
		{"OverviewUncached", "/"}, // the maintain plan read again
		{"MemoriesList", "/memories"},
		{"MemoriesByTier", "/memories?tier=archive"},
		{"MemoriesByTag", "/memories?tag=t7"},
		{"MemoriesByTagAndTier", "/memories?tag=t7&tier=archive"},
		{"MemoriesSearch", "/memories?mode=bm25&q=" + url.QueryEscape(query)},
		{"Memory", "/memories/" + one[0].ID},
		{"Sessions", "/sessions"},
		{"Session", "/sessions/bench"},
		{"Maintain", "/maintain"},
		{"Rollups", "/rollups"},
		{"Forget", "/forget"},
		{"ForgetDryRun", "/forget?search=" + url.QueryEscape(query)},
	} {
		b.Run(p.name, func(b *testing.B) {
			// One view first, untimed: the overview's kept panels are read
			// then, as a person's first visit reads them.
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "http://localhost"+p.path, nil))
			cpu, views := processCPU(), 0
			for b.Loop() {
				views++
				if p.name == "OverviewUncached" {
					h.changed()
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://localhost"+p.path, nil))
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", p.path, w.Code, w.Body)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(views), "cpu-ms/op")
		})
	}
}
