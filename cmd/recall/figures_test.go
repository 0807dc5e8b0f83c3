package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/synth"
)

// figuresEnv names a store made by 'recall bench scale --keep' (its
// directory, whose config may name a server): TestSearchFigures then
// times the benchmark's questions against it. It is skipped otherwise:
// the figures of docs/postgres.md at 100,000 memories come from it,
// and a store that size takes minutes to build.
const figuresEnv = "RECALL_FIGURES_STORE"

// TestSearchFigures asks a kept scale-benchmark store the benchmark's
// questions in hybrid and BM25 mode, through the searcher 'recall search'
// uses, and logs per mode the percentiles of wall time, of this
// process's CPU time and, on PostgreSQL, of the server's: the CPU time
// of the backends serving the store's connections, from
// /proc/PID/schedstat (the server on this machine), which a busy machine
// inflates less than wall time. RECALL_FIGURES_QUERIES sets how many
// questions (100), RECALL_FIGURES_MEMORIES the store's size (100,000:
// the questions and their targets depend on it), RECALL_FIGURES_IDS
// a file to write each answer's ids and scores to, to compare rankings
// across changes, and RECALL_FIGURES_MODES the modes to ask (hybrid,bm25),
// so that a CPU profile (go test -cpuprofile) can hold one mode alone.
func TestSearchFigures(t *testing.T) {
	dir := os.Getenv(figuresEnv)
	if dir == "" {
		t.Skip(figuresEnv + " names no kept benchmark store")
	}
	queries, n := envInt(t, "RECALL_FIGURES_QUERIES", 100), envInt(t, "RECALL_FIGURES_MEMORIES", 100000)
	ctx := context.Background()
	a := newApp(nil, os.Stdout, os.Stderr)
	a.eng.StoreFlag = dir
	if err := a.eng.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer a.close()
	corpus := synth.New(1, synth.DefaultVocab)
	qs, targets := make([]string, queries), make([]string, queries)
	for q := range qs {
		var target int
		qs[q], target = corpus.Query(q, n)
		targets[q], _ = corpus.Memory(target)
	}
	// The benchmark's clock: its memories are ten minutes apart.
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n) * 10 * time.Minute)
	// Each search carries the labels mode and q (the question's number),
	// so that a CPU profile (go test -cpuprofile) can be cut to the
	// slowest questions RECALL_FIGURES_TAIL logs (pprof -tagfocus).
	search := func(q int, mode string) (hits []*recall.SearchHit, err error) {
		pprof.Do(ctx, pprof.Labels("mode", mode, "q", strconv.Itoa(q)), func(ctx context.Context) {
			hits, err = a.eng.Searcher().Search(ctx, recall.SearchQuery{Text: qs[q], Limit: 10, Mode: mode, Now: now})
		})
		return hits, err
	}
	modes := []string{recall.ModeHybrid, recall.ModeBM25}
	if m := os.Getenv("RECALL_FIGURES_MODES"); m != "" {
		modes = strings.Split(m, ",")
	}
	// Warm up: the pool's connections open, the vector index is read.
	for q := range min(10, queries) {
		for _, mode := range modes {
			if _, err := search(q, mode); err != nil {
				t.Fatal(err)
			}
		}
	}
	server := serverCPU(t, ctx, a.eng.Config.Store.URL)
	ids := map[string][][]string{}
	for _, mode := range modes {
		var wall, client, srv []time.Duration
		found := 0
		for q := range qs {
			s0, c0, t0 := server(), processCPU(t), time.Now()
			hits, err := search(q, mode)
			if err != nil {
				t.Fatalf("%s %q: %v", mode, qs[q], err)
			}
			wall, client, srv = append(wall, time.Since(t0)), append(client, processCPU(t)-c0), append(srv, server()-s0)
			var top []string
			for _, h := range hits {
				// The score as Go prints a float64 exactly: two runs
				// compare equal only when the scores are the same bits.
				top = append(top, h.Memory.ID+" "+strconv.FormatFloat(h.Score, 'g', -1, 64))
				if h.Memory.Title == targets[q] {
					found++
				}
			}
			ids[mode] = append(ids[mode], top)
		}
		t.Logf("%-6s wall %s; client CPU %s; server CPU %s; target@10 %.3f", mode,
			pcts(wall), pcts(client), pcts(srv), float64(found)/float64(queries))
		by := wall
		if os.Getenv("RECALL_FIGURES_TAIL_BY") == "cpu" {
			by = client
		}
		logTail(t, mode, qs, by, wall, client, envInt(t, "RECALL_FIGURES_TAIL", 0))
	}
	if out := os.Getenv("RECALL_FIGURES_IDS"); out != "" {
		b, err := json.Marshal(ids)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// logTail logs the n slowest questions of a mode by the times in by
// (wall time, or CPU time with RECALL_FIGURES_TAIL_BY=cpu: on a busy
// machine the wall tail is the machine's), with their wall and CPU time:
// the tail is what the p95 is made of.
func logTail(t *testing.T, mode string, qs []string, by, wall, cpu []time.Duration, n int) {
	order := make([]int, len(qs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(by[b] - by[a]) })
	for _, q := range order[:min(n, len(order))] {
		t.Logf("%-6s #%-3d wall %5.1f CPU %5.1f ms  %q", mode, q,
			float64(wall[q].Microseconds())/1000, float64(cpu[q].Microseconds())/1000, qs[q])
	}
}

// serverCPU returns a function reading the CPU time so far of the
// backends serving the other connections to the database dbURL names,
// the store's pool (warmed up before, so that its connections are open);
// it reads zero without a server. A backend that leaves during the run
// fails the test: its time would be lost.
func serverCPU(t *testing.T, ctx context.Context, dbURL string) func() time.Duration {
	if dbURL == "" {
		return func() time.Duration { return 0 }
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Del("namespace")
	u.RawQuery = q.Encode()
	conn, err := pgx.Connect(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`)
	if err != nil {
		t.Fatal(err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		t.Fatal(err)
	}
	if len(pids) == 0 {
		t.Fatal("no backend serves the store")
	}
	return func() time.Duration {
		var sum time.Duration
		for _, pid := range pids {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid))
			if err != nil {
				t.Fatalf("backend %d: %v", pid, err)
			}
			ns, err := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			sum += time.Duration(ns)
		}
		return sum
	}
}

// processCPU is this process's user and system CPU time so far.
func processCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pcts formats the 50th and 95th percentiles and the mean of d.
func pcts(d []time.Duration) string {
	s := slices.Clone(d)
	slices.Sort(s)
	var sum time.Duration
	for _, x := range s {
		sum += x
	}
	ms := func(x time.Duration) float64 { return float64(x.Microseconds()) / 1000 }
	return fmt.Sprintf("p50 %.1f p95 %.1f mean %.1f ms", ms(s[len(s)/2]), ms(s[(len(s)*95+99)/100-1]), ms(sum/time.Duration(len(s))))
}

// envInt reads a positive integer from the environment, def when unset.
func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return v
}
