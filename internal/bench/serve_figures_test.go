package bench

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/recall-mem/recall/internal/synth"
)

// TestServeFigures measures 'recall serve' on a store that 'recall bench
// scale --keep' left, as the scale benchmark's serve phase does, for each
// binary of RECALL_SERVE_FIGURES_EXE (comma-separated) in turn, and
// RECALL_SERVE_FIGURES_ROUNDS times over (1): an old and a new binary
// alternated meet the same load. RECALL_SERVE_FIGURES_STORE names the
// store's directory (without it the test does nothing: such a store
// takes minutes to build; a binary that migrates it changes it, so give
// a copy). RECALL_SERVE_FIGURES_QUERIES is the requests per mode (400,
// each question a different one), RECALL_SERVE_FIGURES_MEMORIES the
// store's size (100,000: the questions depend on it) and
// RECALL_SERVE_FIGURES_CLIENTS the concurrent clients (20).
func TestServeFigures(t *testing.T) {
	store := os.Getenv("RECALL_SERVE_FIGURES_STORE")
	if store == "" {
		t.Skip("set RECALL_SERVE_FIGURES_STORE to a kept scale store to measure serve")
	}
	exes := strings.Split(os.Getenv("RECALL_SERVE_FIGURES_EXE"), ",")
	if exes[0] == "" {
		t.Fatal("RECALL_SERVE_FIGURES_EXE names no recall binary")
	}
	env := func(name string, def int) int {
		t.Helper()
		v := os.Getenv(name)
		if v == "" {
			return def
		}
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("%s=%q: want a positive number", name, v)
		}
		return n
	}
	rounds, queries := env("RECALL_SERVE_FIGURES_ROUNDS", 1), env("RECALL_SERVE_FIGURES_QUERIES", 400)
	n, clients := env("RECALL_SERVE_FIGURES_MEMORIES", 100000), env("RECALL_SERVE_FIGURES_CLIENTS", 20)
	corpus := synth.New(1, synth.DefaultVocab)
	qs := make([]string, queries)
	for q := range qs {
		qs[q], _ = corpus.Query(q, n)
	}
	for round := range rounds {
		for _, exe := range exes {
			load, _ := os.ReadFile("/proc/loadavg")
			tp, err := serveThroughput(context.Background(), exe, store, qs, clients, "hybrid", "bm25")
			if err != nil {
				t.Fatalf("%s: %v", exe, err)
			}
			for _, mode := range []string{"hybrid", "bm25"} {
				r := tp[mode]
				t.Logf("round %d %s %s: %d requests, %.1f req/s, p50 %.1f p95 %.1f ms, server %.2f CPU-ms a request, clients %.2f, peak RSS %.0f MiB (own %.0f) (load %s)",
					round+1, exe, mode, r.Requests, r.PerS, r.P50, r.P95, r.ServerCPUMS, r.ClientCPUMS, r.ServerPeakRSSMiB, r.ServerOwnMiB, strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
			}
		}
	}
}
