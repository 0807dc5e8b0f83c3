package bench_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-mem/recall/internal/bench"
)

// fakeRecallEnv makes this test binary act as the recall binary the
// process measurements run: serve answers searches, export prints lines,
// import reads them, search does nothing.
const fakeRecallEnv = "BENCH_FAKE_RECALL"

// fakeImportBytes is what the fake import holds resident.
const fakeImportBytes = 32 << 20

func TestMain(m *testing.M) {
	if os.Getenv(fakeRecallEnv) == "1" {
		os.Exit(fakeRecall(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeRecall(args []string) int {
	if len(args) < 3 || args[0] != "--store" {
		fmt.Fprintln(os.Stderr, "fake recall: unexpected arguments", args)
		return 2
	}
	switch args[2] {
	case "search":
		return 0
	case "export":
		for i := range 100 {
			fmt.Printf("{\"id\":\"m%d\",\"content\":%q}\n", i, strings.Repeat("x", 1000))
		}
		return 0
	case "import":
		b, err := os.ReadFile(args[3])
		if err != nil || strings.Count(string(b), "\n") != 100 {
			fmt.Fprintln(os.Stderr, "fake recall: import got", len(b), err)
			return 1
		}
		// Hold a known amount of memory for a while, as a real import
		// does, so its peak can be told from the parent's.
		held := make([]byte, fakeImportBytes)
		for i := 0; i < len(held); i += 4096 {
			held[i] = 1
		}
		time.Sleep(150 * time.Millisecond)
		runtime.KeepAlive(held)
		return 0
	case "serve":
		var n atomic.Int64
		mux := http.NewServeMux()
		mux.HandleFunc("GET /v1/healthz", func(http.ResponseWriter, *http.Request) {})
		mux.HandleFunc("GET /v1/search", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("q") == "" || !slices.Contains([]string{"bm25", "hybrid"}, r.URL.Query().Get("mode")) {
				http.Error(w, "bad query", http.StatusBadRequest)
				return
			}
			n.Add(1)
			// Some work, so that the server's CPU per request shows.
			for start := time.Now(); time.Since(start) < 3*time.Millisecond; {
			}
			fmt.Fprint(w, `{"hits":[]}`)
		})
		fmt.Fprintln(os.Stderr, http.ListenAndServe(args[4], mux))
		return 1
	}
	return 2
}

// The process measurements run the binary they are given: cold start,
// concurrent clients against its server in both modes (every request
// answered), and the import of its export.
func TestScale_Processes(t *testing.T) {
	t.Setenv(fakeRecallEnv, "1")
	sc := bench.Scale{Product: bench.Product{DBFile: "recall.db", Open: hashingStore}, Memories: 40, Queries: 7, Seed: 1, Budget: 500,
		ColdRuns: 2, Clients: 3, ImportRSS: true, Exe: os.Args[0], ConfigFile: "config.toml"}
	rep, dir, err := sc.Run(context.Background())
	if dir != "" {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	if rep.ColdStartMS == nil || rep.ColdStartMS.P50 <= 0 {
		t.Errorf("cold start %v", rep.ColdStartMS)
	}
	for name, tp := range map[string]*bench.Throughput{"hybrid": rep.ServeHybrid, "bm25": rep.ServeBM25} {
		if tp == nil || tp.Clients != 3 || tp.Requests != 15 || tp.PerS <= 0 || tp.P95 <= 0 {
			t.Errorf("serve %s: %+v, want 15 requests (5 per client) from 3 clients", name, tp)
		}
		if runtime.GOOS == "linux" && (tp == nil || tp.ServerCPUMS <= 0) {
			t.Errorf("serve %s: %+v, want the server's CPU per request", name, tp)
		}
		if runtime.GOOS == "linux" && (tp == nil || tp.ClientCPUMS <= 0) {
			t.Errorf("serve %s: %+v, want the clients' CPU per request", name, tp)
		}
	}
	if rep.ImportPeakRSS <= 0 {
		t.Errorf("import peak RSS %d", rep.ImportPeakRSS)
	}
	wantText(t, rep, "serve hybrid", "serve bm25", "(3 clients)", "import peak RSS")
}

// The import figure is the child's peak, not the bench process's: with
// this process holding 256 MiB, an import holding 32 MiB must report
// about 32 MiB (Go starts children with vfork, and Linux folds the
// parent's high-water mark into the child's rusage at exec).
func TestScale_ImportRSSIsTheChilds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the parent's peak leaks into a child's rusage on Linux")
	}
	t.Setenv(fakeRecallEnv, "1")
	ballast := make([]byte, 256<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	sc := bench.Scale{Product: bench.Product{DBFile: "recall.db", Open: hashingStore}, Memories: 40, Queries: 3, Seed: 1,
		ImportRSS: true, Exe: os.Args[0], ConfigFile: "config.toml"}
	rep, dir, err := sc.Run(context.Background())
	if dir != "" {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(ballast)
	if got := rep.ImportPeakRSS; got < fakeImportBytes || got > 128<<20 {
		t.Errorf("import peak RSS %.1f MiB, want the child's ~%d MiB (over %d MiB and under 128 MiB; this process holds 256 MiB)",
			float64(got)/(1<<20), fakeImportBytes>>20, fakeImportBytes>>20)
	}
}
