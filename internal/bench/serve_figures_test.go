package bench

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/recall-mem/recall/internal/synth"
)

// serveFiguresEnv names a store kept by 'recall bench scale --keep' (its
// directory): TestServeFigures then runs the serve phase of the scale
// benchmark against it with each binary that RECALL_SERVE_FIGURES_EXE
// lists (comma-separated), in turn, RECALL_SERVE_FIGURES_ROUNDS times
// (1), so that an old and a new binary are measured interleaved at the
// same load. RECALL_SERVE_FIGURES_QUERIES sets the requests per mode
// (400, each a different question), RECALL_SERVE_FIGURES_MEMORIES the
// store's size (100,000: the questions depend on it), and
// RECALL_SERVE_FIGURES_CLIENTS the concurrent clients (20). A binary
// that migrates the store changes it: run it on a copy. It is skipped
// otherwise: a store that size takes minutes to build.
const serveFiguresEnv = "RECALL_SERVE_FIGURES_STORE"

func TestServeFigures(t *testing.T) {
	dir := os.Getenv(serveFiguresEnv)
	if dir == "" {
		t.Skip(serveFiguresEnv + " names no kept benchmark store")
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
			tp, err := serveThroughput(context.Background(), exe, dir, qs, clients, "hybrid", "bm25")
			if err != nil {
				t.Fatalf("%s: %v", exe, err)
			}
			for _, mode := range []string{"hybrid", "bm25"} {
				r := tp[mode]
				t.Logf("round %d %s %s: %d requests, %.1f req/s, p50 %.1f p95 %.1f ms, server %.2f CPU-ms a request (load %s)",
					round+1, exe, mode, r.Requests, r.PerS, r.P50, r.P95, r.ServerCPUMS, strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
			}
		}
	}
}
