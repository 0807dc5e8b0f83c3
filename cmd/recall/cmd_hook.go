package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/hook"
	"github.com/spf13/cobra"
)

// Hook budget: a hook must never hold the agent up. Past [hook]
// timeout_ms (SessionStart: 5/3 of it, for the heartbeat) the hook gives
// up, logs why and exits 0.
const hookDefaultBudget = 3 * time.Second

func (a *app) hookCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "hook",
		Short: "Record agent events from hooks (run by the agent, not by people)",
		Long: `Agents run these commands from their hook settings; 'recall install'
writes those settings. Each reads one event payload on stdin, records it as
observations and always exits 0.`,
		Example: `  recall install claude    # registers 'recall hook claude' for every event`,
		Args:    cobra.NoArgs,
	}
	c.AddCommand(&cobra.Command{
		Use:   "claude",
		Short: "Read one Claude Code hook payload on stdin and record it",
		Long: `Read one Claude Code hook payload (JSON on stdin) and record what it says:
a prompt, a tool call mapped to a typed observation, the start or end of a
session. On SessionStart it runs the session heartbeat and prints the context
to inject as {"hookSpecificOutput": {"hookEventName": "SessionStart",
"additionalContext": …}} within [hook] context_tokens.

A hook never breaks the agent: it always exits 0, writes nothing but the
SessionStart context to stdout, and logs its own failures and malformed
payloads to hook.log in the store directory. 'recall install claude'
registers it.`,
		Example: `  echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"hi","cwd":"'$PWD'"}' | recall hook claude`,
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			lowHeapGC()
			oneProc()
			a.runClaudeHook(c.Context())
			return nil
		},
	})
	c.AddCommand(&cobra.Command{
		Use:    "upkeep",
		Short:  "Run the session-start upkeep a SessionStart hook left (started by the hook)",
		Args:   cobra.NoArgs,
		Hidden: true,
		RunE: func(c *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(c.Context(), hookUpkeepTimeout)
			defer cancel()
			a.eng.YieldToHooks = true
			fd, handed := handedUpkeepLock()
			if err := a.open(ctx); err != nil {
				return err
			}
			if handed {
				// Not the lock (a stray variable): the upkeep takes it.
				_ = a.eng.AdoptUpkeepLock(fd)
			}
			a.eng.SessionUpkeepPaced(ctx, hookUpkeepSlice, hookUpkeepPause)
			return nil
		},
	})
	return c
}

// oneProc runs a hook on one P (GOMAXPROCS 1), unless GOMAXPROCS is
// set. A hook's work is one goroutine's, one call after another; with a
// second P idle, the runtime woke a thread to look for work each time a
// goroutine became runnable (database/sql's connection opener, the
// driver's watch of a statement's context) or a system call blocked,
// and let it spin: about 1 ms of a SessionStart hook's CPU, on a machine
// whose other core the upkeep process or the agent wants.
func oneProc() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

// hookUpkeepTimeout bounds the upkeep process a SessionStart hook leaves
// behind; what it does not finish, the next one resumes.
const hookUpkeepTimeout = time.Minute

// The upkeep process rolls up in slices of hookUpkeepSlice with
// hookUpkeepPause between them, in which the hooks and commands started
// meanwhile take the store's write lock.
const (
	hookUpkeepSlice = 25 * time.Millisecond
	hookUpkeepPause = 50 * time.Millisecond
)

// hookUpkeepEnv set to "inline" makes the SessionStart hook run its upkeep
// before replying, in its own process, as it did before the upkeep moved
// after the reply (tests whose store goes away when they end set it).
const hookUpkeepEnv = "RECALL_HOOK_UPKEEP"

// startUpkeep starts 'recall hook upkeep' on the hook's store, detached:
// its own session, no terminal and no stdio shared with the agent, which
// waits for the hook's output streams to close. The hook does not wait
// for it.
func (a *app) startUpkeep() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	// The same flags, environment and working directory as the hook's,
	// so that the process resolves the same store (a server's URL
	// included).
	args := []string{"hook", "upkeep"}
	if a.eng.StoreFlag != "" {
		args = append([]string{"--store", a.eng.StoreFlag}, args...)
	}
	if a.eng.GlobalFlag {
		args = append([]string{"--global"}, args...)
	}
	cmd := exec.Command(exe, args...)
	cmd.Args[0] = "recall" // the name the binary (or a test harness) runs as
	detach(cmd)
	// The upkeep lock this hook kept goes to the process: held from its
	// start, so the next hook's session start leaves no second one. The
	// hook's copy is closed once the process has its own; if it never
	// starts, that lets go of the lock.
	if lock := a.eng.TakeUpkeepLock(); lock != nil {
		defer lock.Close()
		handUpkeepLock(cmd, lock)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the session upkeep: %w", err)
	}
	yieldCPU(cmd.Process.Pid)
	return cmd.Process.Release()
}

// runClaudeHook handles one payload; every failure is logged, none is
// returned.
func (a *app) runClaudeHook(ctx context.Context) {
	p, err := hook.Parse(a.stdin)
	if err != nil {
		a.hookLog(nil, err)
		return
	}
	if p.Event == hook.EventStop && p.TranscriptPath == "" {
		return // nothing to record: skip opening the store
	}
	// Claude Code runs hooks in the project directory; the payload's cwd
	// says so explicitly and finds the project store from there.
	if p.CWD != "" && a.eng.StoreFlag == "" && os.Getenv("RECALL_STORE") == "" {
		_ = os.Chdir(p.CWD)
	}
	logDir, budget := a.eng.HookBudget(hookDefaultBudget)
	// A hook reads on the connection it writes on: it connects to the
	// database once. Not a session start that runs its upkeep inline,
	// which sets the writer connection's pragmas for the sweep.
	a.eng.ReadsOnWriter = p.Event != hook.EventSessionStart || os.Getenv(hookUpkeepEnv) != "inline"
	if p.Event == hook.EventSessionStart {
		budget = budget * 5 / 3
		// The upkeep (rollups, sweep) runs after the reply, in a process
		// of its own: with a rollup backlog it cost the hook more than
		// the rest of the session start.
		a.eng.DeferUpkeep = os.Getenv(hookUpkeepEnv) != "inline"
		a.eng.KeepUpkeepLock = a.eng.DeferUpkeep && handsLockOver
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	// The work runs aside so that the budget holds even where SQLite waits
	// without looking at ctx (another process holding the write lock while
	// the store opens). Past the budget the process exits at once: the
	// transaction it may have begun is never committed, so SQLite drops it.
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		// Waits for the session upkeep's transaction under way, if any,
		// and keeps it from beginning another until the hook is done.
		// Before the store opens: the writer's set-up takes SQLite's
		// write lock (migrate's CREATE TABLE IF NOT EXISTS), and a hook
		// that opened first met the upkeep there, polling for it.
		release := engine.HookGate(logDir)
		defer release()
		if err := a.openForWrite(ctx); err != nil {
			done <- result{err: err}
			return
		}
		out, err := a.eng.RecordHook(ctx, p)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			a.hookLog(p, r.err)
		}
		if len(r.out) > 0 {
			if _, err := a.stdout.Write(r.out); err != nil {
				a.hookLog(p, err)
			}
		}
		if a.eng.UpkeepDeferred() {
			if err := a.startUpkeep(); err != nil {
				a.hookLog(p, err)
			}
		}
	case <-ctx.Done():
		a.writeHookLog(logDir, p, fmt.Errorf("gave up after %v (is another process holding the store?); nothing was recorded", budget))
		os.Exit(exitOK)
	}
}

// hookLog appends one line about a failure to hook.log in the store
// directory (or the global store when none resolves), rotating it past
// 1 MiB (engine.AppendHookLog), else to stderr. It never writes to stdout,
// which belongs to the agent.
func (a *app) hookLog(p *hook.Payload, err error) { a.writeHookLog(a.eng.HookLogDir(), p, err) }

func (a *app) writeHookLog(dir string, p *hook.Payload, err error) {
	if line, ok := a.eng.LogHookError(dir, p, err); !ok {
		fmt.Fprint(a.stderr, "recall hook: "+line)
	}
}
