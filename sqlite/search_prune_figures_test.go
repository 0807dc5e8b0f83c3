//go:build linux

package sqlite

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/recall-mem/recall/internal/synth"
)

// pruneFiguresEnv names a kept benchmark store's recall.db (a copy: a
// newer binary migrates it): TestPruneFigures then scores the
// benchmark's questions' full-text windows on it and writes, per
// question, the rows the whole expression matches, the rows the search
// scored, its statements and its CPU time, so that two binaries (before
// and after a change of the pruning) can be compared question by
// question. RECALL_PRUNE_FIGURES_QUERIES sets the questions (1,000),
// RECALL_PRUNE_FIGURES_RUNS the runs of each (5; the median CPU is
// kept) and RECALL_PRUNE_FIGURES_OUT the file to write.
const pruneFiguresEnv = "RECALL_PRUNE_FIGURES_STORE"

// pruneFigure is one question's line of TestPruneFigures.
type pruneFigure struct {
	Q      int     `json:"q"`
	Whole  int     `json:"whole"`
	Scored int     `json:"scored"`
	Stmts  int     `json:"stmts"`
	CPUus  float64 `json:"cpu_us"`
	Window string  `json:"window"`
}

func TestPruneFigures(t *testing.T) {
	path := os.Getenv(pruneFiguresEnv)
	if path == "" {
		t.Skip(pruneFiguresEnv + " names no kept benchmark store")
	}
	queries, err := strconv.Atoi(cmp.Or(os.Getenv("RECALL_PRUNE_FIGURES_QUERIES"), "1000"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := strconv.Atoi(cmp.Or(os.Getenv("RECALL_PRUNE_FIGURES_RUNS"), "5"))
	if err != nil {
		t.Fatal(err)
	}
	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := NewMemoryService(db)
	ctx := context.Background()
	corpus := synth.New(1, synth.DefaultVocab)
	const window = 133 // a search for the ranker's 100 candidates
	// The statements run on this goroutine (the driver is Go): its
	// thread's CPU time is theirs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var out []pruneFigure
	for q := range queries {
		text, _ := corpus.Query(q, 100000)
		m, err := s.matchExpr(ctx, text)
		if err != nil || m.expr == "" {
			t.Fatalf("%q: %+v %v", text, m, err)
		}
		var cpu []time.Duration
		var got []rankedRow
		var exprs []string
		for range runs {
			c0 := threadCPU(t)
			if got, exprs, err = s.rankWindow(ctx, m, window); err != nil {
				t.Fatal(err)
			}
			cpu = append(cpu, threadCPU(t)-c0)
		}
		slices.Sort(cpu)
		f := pruneFigure{Q: q, Whole: matchCount(t, s, m.expr), Stmts: len(exprs), CPUus: float64(cpu[len(cpu)/2].Microseconds())}
		for _, e := range exprs {
			f.Scored += matchCount(t, s, e)
		}
		want, err := s.rankExpr(ctx, m.expr, m.from, window)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(byRank(got), byRank(want)) {
			t.Errorf("#%d %s: the window is not the statement's", q, m.expr)
		}
		for _, r := range byRank(got) {
			f.Window += strconv.FormatInt(r.seq, 10) + ":" + strconv.FormatFloat(r.rank, 'g', -1, 64) + " "
		}
		out = append(out, f)
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if p := os.Getenv("RECALL_PRUNE_FIGURES_OUT"); p != "" {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// threadCPU is the calling thread's user and system CPU time so far.
func threadCPU(t *testing.T) time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
