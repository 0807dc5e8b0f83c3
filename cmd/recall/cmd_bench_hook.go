package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/sqlite"
	"github.com/spf13/cobra"
)

// latencies summarises wall times in milliseconds, and the CPU time
// (user + system) of the processes, which a busy machine inflates less.
type latencies struct {
	Runs   int     `json:"runs"`
	P50    float64 `json:"p50_ms"`
	P95    float64 `json:"p95_ms"`
	Max    float64 `json:"max_ms"`
	CPUP50 float64 `json:"cpu_p50_ms"`
	CPUP95 float64 `json:"cpu_p95_ms"`
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
	l.P50, l.P95, l.Max = quantiles(wall)
	l.CPUP50, l.CPUP95, _ = quantiles(cpu)
	return l
}

func (a *app) benchHookCommand() *cobra.Command {
	var n, runs int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "hook",
		Short: "Time `recall hook claude` processes on a store of N observations",
		Long: `Build a temporary store with N synthetic observations (and some sessions
and pins), then spawn this binary as 'recall hook claude' R times for a
PostToolUse payload and R times for a SessionStart payload, and report wall
time per process (p50, p95, max), start-up included. Targets at 100,000
observations: PostToolUse p95 at most 25 ms, SessionStart at most 60 ms.`,
		Example: `  recall bench hook --observations 100000 --runs 50`,
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if n < 0 || runs < 1 {
				return usagef("--observations must be at least 0 and --runs at least 1")
			}
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			dir, err := os.MkdirTemp("", "recall-bench-hook-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			store := filepath.Join(dir, "store")
			fprintf(a.stderr, "Seeding %d observations in %s…\n", n, store)
			seedStart := time.Now()
			if err := seedHookBench(c.Context(), store, n); err != nil {
				return err
			}
			seeded := time.Since(seedStart)
			post, err := timeHook(exe, store, dir, runs, func(i int) string {
				return fmt.Sprintf(`{"session_id":"bench-s","hook_event_name":"PostToolUse","cwd":%q,"tool_name":"Bash","tool_input":{"command":"go test ./pkg/%d/..."},"tool_response":{"stdout":%q,"stderr":"","interrupted":false},"tool_use_id":"toolu_%d"}`,
					dir, i, strings.Repeat("ok  \tpkg/module\t0.412s\n", 60), i)
			}, false)
			if err != nil {
				return err
			}
			start, err := timeHook(exe, store, dir, runs, func(i int) string {
				return fmt.Sprintf(`{"session_id":"bench-start-%d","hook_event_name":"SessionStart","cwd":%q,"source":"startup"}`, i, dir)
			}, true)
			if err != nil {
				return err
			}
			res := map[string]any{"observations": n, "seed_seconds": seeded.Seconds(), "post_tool_use": post, "session_start": start}
			if jsonOut {
				return writeJSON(a.stdout, res)
			}
			fprintf(a.stdout, "store: %d observations (seeded in %.1fs)\n", n, seeded.Seconds())
			fprintf(a.stdout, "PostToolUse   runs=%d wall p50=%.1fms p95=%.1fms max=%.1fms, cpu p50=%.1fms p95=%.1fms (target wall p95 <= 25ms)\n",
				post.Runs, post.P50, post.P95, post.Max, post.CPUP50, post.CPUP95)
			fprintf(a.stdout, "SessionStart  runs=%d wall p50=%.1fms p95=%.1fms max=%.1fms, cpu p50=%.1fms p95=%.1fms (target wall p95 <= 60ms)\n",
				start.Runs, start.P50, start.P95, start.Max, start.CPUP50, start.CPUP95)
			return nil
		},
	}
	c.Flags().IntVar(&n, "observations", 100000, "observations in the store (`N`)")
	c.Flags().IntVar(&runs, "runs", 30, "processes to time per event (`R`)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}

// timeHook spawns the hook runs times and returns its wall times. A run
// that fails or, for SessionStart, prints no context object is an error.
func timeHook(exe, store, wd string, runs int, payload func(int) string, wantOutput bool) (latencies, error) {
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
			return latencies{}, fmt.Errorf("run %d printed no context; see %s", i, filepath.Join(store, hookLogFile))
		}
	}
	return summarise(ds, cpu), nil
}

// seedHookBench fills a store with n observations of realistic shape, a
// few weeks of sessions and some pins.
func seedHookBench(ctx context.Context, dir string, n int) error {
	db := sqlite.NewDB(filepath.Join(dir, engine.DBFile))
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
