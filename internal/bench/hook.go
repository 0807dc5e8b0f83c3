package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// HookHelp is the long help of 'recall bench hook': what the benchmark does
// and measures, kept beside the code that does it.
const HookHelp = `Build a temporary store with N synthetic observations (and some sessions
and pins), then spawn this binary as 'recall hook claude' R times for a
PostToolUse payload and R times for a SessionStart payload, and report wall
time per process (p50, p95, max), start-up included, and its CPU time;
--json also lists every run's wall and CPU milliseconds in the order run.
Targets at 100,000 observations: PostToolUse p95 at most 25 ms,
SessionStart at most 60 ms.

The seeded observations span N minutes and none is rolled up, so every
SessionStart catches up a rollup backlog within its budget, as after an
import. --rolled-up runs 'recall rollup' once after seeding instead: the
steady state of a store whose upkeep keeps up.`

// HookExamples are the examples of 'recall bench hook'.
const HookExamples = `  recall bench hook --observations 100000 --runs 50`

// latencies summarises wall times in milliseconds, and the CPU time
// (user + system) of the processes, which a busy machine inflates less.
type latencies struct {
	Runs   int     `json:"runs"`
	P50    float64 `json:"p50_ms"`
	P95    float64 `json:"p95_ms"`
	Max    float64 `json:"max_ms"`
	CPUP50 float64 `json:"cpu_p50_ms"`
	CPUP95 float64 `json:"cpu_p95_ms"`
	// Each run's wall and CPU milliseconds in the order run: where a
	// tail comes from (which run, waiting or work) is not in quantiles.
	WallMS []float64 `json:"wall_ms,omitempty"`
	CPUMS  []float64 `json:"cpu_ms,omitempty"`
}

// quantiles returns the p50, p95 and maximum of ds in milliseconds.
func quantiles(ds []time.Duration) (p50, p95, top float64) {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	at := func(q float64) float64 { return ms(ds[min(len(ds)-1, int(q*float64(len(ds))))]) }
	return at(0.50), at(0.95), ms(ds[len(ds)-1])
}

func summarise(wall, cpu []time.Duration) latencies {
	l := latencies{Runs: len(wall)}
	for i := range wall {
		l.WallMS = append(l.WallMS, float64(wall[i].Microseconds())/1000)
		l.CPUMS = append(l.CPUMS, float64(cpu[i].Microseconds())/1000)
	}
	l.P50, l.P95, l.Max = quantiles(wall)
	l.CPUP50, l.CPUP95, _ = quantiles(cpu)
	return l
}

// Hook configures a run of hook processes.
type Hook struct {
	Product      Product   // DBFile
	Observations int       // observations in the store
	Runs         int       // processes timed per event
	RolledUp     bool      // roll the seeded observations up before timing
	LogFile      string    // the hook's log in the store, named when a run prints nothing
	Log          io.Writer // progress of the seeding
}

// HookReport is the JSON output of bench hook.
type HookReport struct {
	Observations int       `json:"observations"`
	RolledUp     bool      `json:"rolled_up"`
	PostToolUse  latencies `json:"post_tool_use"`
	SeedSeconds  float64   `json:"seed_seconds"`
	SessionStart latencies `json:"session_start"`
}

// Run seeds a temporary store, then spawns this binary as 'recall hook
// claude' for PostToolUse and SessionStart payloads and times it.
func (h *Hook) Run(ctx context.Context) (*HookReport, error) {
	n, runs := h.Observations, h.Runs
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "recall-bench-hook-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	store := filepath.Join(dir, "store")
	fmt.Fprintf(h.Log, "Seeding %d observations in %s…\n", n, store)
	seedStart := time.Now()
	if err := seedHookBench(ctx, filepath.Join(store, h.Product.DBFile), n); err != nil {
		return nil, err
	}
	if h.RolledUp {
		cmd := exec.Command(exe, "--store", store, "rollup")
		cmd.Args[0] = "recall"
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("recall rollup: %w: %s", err, out)
		}
	}
	seeded := time.Since(seedStart)
	post, err := timeHook(exe, store, dir, h.LogFile, runs, func(i int) string {
		return fmt.Sprintf(`{"session_id":"bench-s","hook_event_name":"PostToolUse","cwd":%q,"tool_name":"Bash","tool_input":{"command":"go test ./pkg/%d/..."},"tool_response":{"stdout":%q,"stderr":"","interrupted":false},"tool_use_id":"toolu_%d"}`,
			dir, i, strings.Repeat("ok  \tpkg/module\t0.412s\n", 60), i)
	}, false)
	if err != nil {
		return nil, err
	}
	start, err := timeHook(exe, store, dir, h.LogFile, runs, func(i int) string {
		return fmt.Sprintf(`{"session_id":"bench-start-%d","hook_event_name":"SessionStart","cwd":%q,"source":"startup"}`, i, dir)
	}, true)
	if err != nil {
		return nil, err
	}
	return &HookReport{Observations: n, RolledUp: h.RolledUp, SeedSeconds: seeded.Seconds(), PostToolUse: post, SessionStart: start}, nil
}

// WriteText prints the report for people.
func (r *HookReport) WriteText(w io.Writer) {
	post, start := r.PostToolUse, r.SessionStart
	fmt.Fprintf(w, "store: %d observations (seeded in %.1fs)\n", r.Observations, r.SeedSeconds)
	fmt.Fprintf(w, "PostToolUse   runs=%d wall p50=%.1fms p95=%.1fms max=%.1fms, cpu p50=%.1fms p95=%.1fms (target wall p95 <= 25ms)\n",
		post.Runs, post.P50, post.P95, post.Max, post.CPUP50, post.CPUP95)
	fmt.Fprintf(w, "SessionStart  runs=%d wall p50=%.1fms p95=%.1fms max=%.1fms, cpu p50=%.1fms p95=%.1fms (target wall p95 <= 60ms)\n",
		start.Runs, start.P50, start.P95, start.Max, start.CPUP50, start.CPUP95)
}

// timeHook spawns the hook runs times and returns its wall times. A run
// that fails or, for SessionStart, prints no context object is an error.
func timeHook(exe, store, wd, logFile string, runs int, payload func(int) string, wantOutput bool) (latencies, error) {
	var ds, cpu []time.Duration
	for i := 0; i < runs; i++ {
		cmd := exec.Command(exe, "--store", store, "hook", "claude")
		cmd.Args[0] = "recall" // the name the binary answers to, also under testscript
		cmd.Dir = wd
		cmd.Stdin = strings.NewReader(payload(i))
		var out bytes.Buffer
		cmd.Stdout = &out
		t0 := time.Now()
		err := cmd.Run()
		ds = append(ds, time.Since(t0))
		if err != nil {
			return latencies{}, fmt.Errorf("run %d: %w", i, err)
		}
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		if wantOutput && !bytes.Contains(out.Bytes(), []byte(`"hookSpecificOutput"`)) {
			return latencies{}, fmt.Errorf("run %d printed no context; see %s", i, filepath.Join(store, logFile))
		}
	}
	return summarise(ds, cpu), nil
}

// seedHookBench fills the database at path with n observations of
// realistic shape, a few weeks of sessions and some pins.
func seedHookBench(ctx context.Context, path string, n int) error {
	db := sqlite.NewDB(path)
	if err := db.Open(); err != nil {
		return err
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields(`build test deploy login session token cache index query handler router config parse
		error retry timeout migrate schema table column user account payment invoice report export import
		file read write edit search grep commit branch merge review lint format module package vendor`)
	types := []string{recall.ObsFileRead, recall.ObsCommand, recall.ObsFileEdit, recall.ObsUserPrompt, recall.ObsSearch, recall.ObsAgentThinking}
	obs := sqlite.NewObservationService(db)
	base := time.Now().UTC().Add(-time.Duration(n) * time.Minute)
	batch := make([]*recall.Observation, 0, 1000)
	for i := 0; i < n; i++ {
		var b strings.Builder
		for w := 0; w < 12+rng.IntN(40); w++ {
			b.WriteString(words[rng.IntN(len(words))] + " ")
		}
		batch = append(batch, &recall.Observation{At: base.Add(time.Duration(i) * time.Minute), Type: types[rng.IntN(len(types))],
			Session: fmt.Sprintf("seed-%d", i/200), Project: "bench", Content: b.String()})
		if len(batch) == cap(batch) || i == n-1 {
			if err := obs.RecordObservations(ctx, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	sessions := sqlite.NewSessionService(db)
	for i := 0; i < 20; i++ {
		id := fmt.Sprintf("seed-%d", i)
		if _, err := sessions.StartSession(ctx, &recall.Session{ID: id, Project: "bench", StartedAt: base.Add(time.Duration(i) * time.Hour)}); err != nil {
			return err
		}
		if _, err := sessions.EndSession(ctx, recall.SessionEnd{ID: id, Summary: fmt.Sprintf("Worked on %s and %s.", words[i], words[i+1]), Learned: "Something about " + words[i+2]}); err != nil {
			return err
		}
	}
	mem := sqlite.NewMemoryService(db)
	for i := 0; i < 5; i++ {
		if _, err := mem.PutMemory(ctx, &recall.Memory{Title: "Core rule " + words[i], Content: "Always " + words[i+3] + " before " + words[i+4] + ".", Pinned: true}); err != nil {
			return err
		}
	}
	return nil
}
