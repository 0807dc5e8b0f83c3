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

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/synth"
)

// pruneFiguresEnv names a kept benchmark store's recall.db (a copy: a
// newer binary migrates it): TestPruneFigures then runs the benchmark's
// questions' full-text searches on it as the ranker asks them (100 hits)
// and writes, per question, the rows the whole expression matches, the
// rows the search scored, its statements, the memory rows it loaded, its
// CPU time and its hits, so that two binaries (before and after a change
// of the pruning) can be compared question by question.
// RECALL_PRUNE_FIGURES_QUERIES sets the questions (1,000),
// RECALL_PRUNE_FIGURES_RUNS the runs of each (5; the median CPU is
// kept) and RECALL_PRUNE_FIGURES_OUT the file to write.
const pruneFiguresEnv = "RECALL_PRUNE_FIGURES_STORE"

// pruneFigure is one question's line of TestPruneFigures.
type pruneFigure struct {
	Q      int     `json:"q"`
	Whole  int     `json:"whole"`
	Scored int     `json:"scored"`
	Stmts  int     `json:"stmts"`
	Loaded int     `json:"loaded"`
	CPUus  float64 `json:"cpu_us"`
	Hits   string  `json:"hits"`
}

func TestPruneFigures(t *testing.T) {
	s, _, queries := openKeptStore(t, pruneFiguresEnv, "RECALL_PRUNE_FIGURES_QUERIES", 1000)
	// The figures are bm25()'s pruning: statements traced and counted. A
	// process that scores windows itself (ownRank) runs none of them, and
	// its "own:" expressions are no SQL to count.
	s.db.lengths.after = -1
	runs := envCount(t, "RECALL_PRUNE_FIGURES_RUNS", 5)
	ctx := context.Background()
	corpus := synth.New(1, synth.DefaultVocab)
	const limit = 100 // the ranker's candidates
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
		var hits []*recall.SearchHit
		for range runs {
			c0 := threadCPU(t)
			if hits, err = s.Search(ctx, recall.SearchQuery{Text: text, Limit: limit}); err != nil {
				t.Fatal(err)
			}
			cpu = append(cpu, threadCPU(t)-c0)
		}
		slices.Sort(cpu)
		exprs, loaded, err := s.pruneTrace(ctx, m, limit)
		if err != nil {
			t.Fatal(err)
		}
		f := pruneFigure{Q: q, Whole: fromCount(t, s, m.expr, m.from), Stmts: len(exprs), Loaded: loaded, CPUus: float64(cpu[len(cpu)/2].Microseconds())}
		for _, e := range exprs {
			from := int64(0)
			if e == m.expr { // scored at once
				from = m.from
			}
			f.Scored += fromCount(t, s, e, from)
		}
		for _, h := range hits {
			f.Hits += h.Memory.ID + ":" + strconv.FormatFloat(h.Score, 'g', -1, 64) + " "
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

// pruneTrace runs the full-text window of a search for limit hits
// without a filter, as Search does, and returns the expressions it
// scored and the memory rows it loaded.
func (s *MemoryService) pruneTrace(ctx context.Context, m ftsMatch, limit int) ([]string, int, error) {
	where, args, err := whereMemories(recall.MemoryFilter{})
	if err != nil {
		return nil, 0, err
	}
	w, err := s.searchWindow(ctx, m, where, args, limit+limit/4+8, limit, true, false)
	return w.exprs, sumInts(w.loads), err
}

// fromCount is how many rows an FTS5 expression matches from a rowid on.
func fromCount(t *testing.T, s *MemoryService, expr string, from int64) int {
	t.Helper()
	var n int
	if err := s.db.read.QueryRow(`SELECT COUNT(*) FROM memories_fts WHERE memories_fts MATCH ? AND rowid >= ?`, expr, from).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
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

// envCount is the count an environment variable sets, or def.
func envCount(t *testing.T, name string, def int) int {
	t.Helper()
	n, err := strconv.Atoi(cmp.Or(os.Getenv(name), strconv.Itoa(def)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// figuresService opens a kept store's recall.db for the length of the
// test.
func figuresService(t *testing.T, path string) *MemoryService {
	t.Helper()
	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return NewMemoryService(db)
}
