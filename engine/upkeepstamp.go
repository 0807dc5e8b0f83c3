package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// UpkeepStampFile, in the store directory, holds when the session-start
// upkeep (rollups and retention sweep) last finished with nothing left to
// do. The upkeep costs a SessionStart hook about 25 ms, more than the
// whole rest of the hook; it only moves closed time buckets and
// observations past retention days, so running it once per upkeepEvery
// delays that work by at most that much and loses none of it: the stamp is
// written only after a complete run, so a run cut short (budget, crash,
// kill -9) leaves the old stamp and the next session start resumes it.
const UpkeepStampFile = "upkeep.stamp"

// upkeepEvery is how long a complete upkeep run is trusted to stay
// current.
const upkeepEvery = time.Hour

func (e *Engine) upkeepStampPath() string { return filepath.Join(e.Location.Dir, UpkeepStampFile) }

// upkeepDue reports whether the session-start upkeep should run at now: no
// complete run is recorded, the stamp is unreadable, or it is older than
// upkeepEvery (or in the future: a clock moved back).
func (e *Engine) upkeepDue(now time.Time) bool {
	b, err := os.ReadFile(e.upkeepStampPath())
	if err != nil {
		return true
	}
	last, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b)))
	if err != nil {
		return true
	}
	age := now.Sub(last)
	return age < 0 || age >= upkeepEvery
}

// markUpkeepDone records a complete upkeep run at now. Failing to write
// it only means the next session start runs the upkeep again.
func (e *Engine) markUpkeepDone(now time.Time) {
	tmp := e.upkeepStampPath() + ".tmp"
	if err := os.WriteFile(tmp, []byte(now.UTC().Format(time.RFC3339Nano)+"\n"), 0o644); err != nil {
		return
	}
	if err := os.Rename(tmp, e.upkeepStampPath()); err != nil {
		_ = os.Remove(tmp)
	}
}

// UpkeepLockFile, in the store directory, is held by the process running
// the session-start upkeep, so that session starts in several processes
// (a hook's upkeep left running, a second agent) do not run it twice.
const UpkeepLockFile = "upkeep.lock"

// SessionUpkeep is the housekeeping of a session start: closed time
// buckets are rolled up within budget (0: [rollup] session_budget_ms)
// and, with [retention] enabled, observations past their type's retention
// are swept (seed 003's opportunistic trigger: at least 100 observations
// older than a day). It returns how many observations were swept, and
// never fails: what it cannot do is left for the next run. It is skipped
// while a complete run is recent, and while another process runs it.
func (e *Engine) SessionUpkeep(ctx context.Context, budget time.Duration) int {
	return e.sessionUpkeep(ctx, budget, 0)
}

// SessionUpkeepPaced is SessionUpkeep for a process of its own (the one a
// SessionStart hook leaves): it rolls up in slices of slice with a pause
// between them until done or ctx ends. SQLite makes a waiting writer poll
// for the lock, and back-to-back rollup transactions kept the hooks and
// commands started meanwhile waiting for most of the run.
func (e *Engine) SessionUpkeepPaced(ctx context.Context, slice, pause time.Duration) int {
	return e.sessionUpkeep(ctx, slice, pause)
}

func (e *Engine) sessionUpkeep(ctx context.Context, slice, pause time.Duration) int {
	if !e.upkeepDue(e.Now()) {
		return 0
	}
	unlock, err := e.lockUpkeep(ctx)
	if err != nil {
		return 0 // another process is at it
	}
	defer unlock()
	now := e.Now()
	if !e.upkeepDue(now) { // that process finished it meanwhile
		return 0
	}
	rep := e.OpportunisticRollup(ctx, slice)
	for pause > 0 && rep != nil && !rep.Done && ctx.Err() == nil {
		// A slice that finished no bucket (one bucket takes longer) would
		// never progress: the next one is twice as long.
		if len(rep.Buckets) == 0 {
			slice *= 2
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
			rep = e.OpportunisticRollup(ctx, slice)
		}
	}
	swept, ok := e.opportunisticSweep(ctx, e.Log)
	if rep != nil && rep.Done && ok && ctx.Err() == nil {
		e.markUpkeepDone(now)
	}
	return swept
}

// upkeepRunning reports whether another process holds the upkeep lock.
// That process does what a new one would, so a deferring session start
// leaves none: with a backlog, every hook used to start one that opened
// the store only to find the lock taken, beside the next hook on the
// same cores. The lock is held for the probe only; an upkeep process
// that meets it then gives up, and the probing hook starts its own.
func (e *Engine) upkeepRunning() bool {
	unlock, err := LockFile(context.Background(), filepath.Join(e.Location.Dir, UpkeepLockFile), 0)
	if err != nil {
		return recall.ErrorCode(err) == recall.EUNAVAILABLE
	}
	unlock()
	return false
}

// claimUpkeep reports whether a deferring session start leaves the
// upkeep to a process of its own: not while another process holds the
// upkeep lock. With KeepUpkeepLock the lock it tried stays held, for that
// process (TakeUpkeepLock).
func (e *Engine) claimUpkeep() bool {
	if !e.KeepUpkeepLock {
		return !e.upkeepRunning()
	}
	if e.upkeepLock != nil {
		return true // an earlier start of this process holds it
	}
	f, err := tryLockFile(filepath.Join(e.Location.Dir, UpkeepLockFile))
	if err != nil {
		return recall.ErrorCode(err) != recall.EUNAVAILABLE
	}
	e.upkeepLock = f // nil where locks are not wired up
	return true
}

// TakeUpkeepLock hands over the upkeep lock a deferring session start
// kept (KeepUpkeepLock), nil if none: the caller passes the file to the
// upkeep process it starts, which holds the lock from its first
// instruction (AdoptUpkeepLock), and closes its own copy.
func (e *Engine) TakeUpkeepLock() *os.File {
	f := e.upkeepLock
	e.upkeepLock = nil
	return f
}

// AdoptUpkeepLock makes the descriptor fd, handed over by the session
// start that left the upkeep, this process's upkeep lock. It reports
// false, leaving fd alone, unless fd is the store's upkeep lock file and
// holds its lock; the upkeep then takes the lock itself as before.
func (e *Engine) AdoptUpkeepLock(fd uintptr) bool {
	if e.upkeepLock != nil {
		return false
	}
	e.upkeepLock = adoptLock(fd, filepath.Join(e.Location.Dir, UpkeepLockFile))
	return e.upkeepLock != nil
}

// lockUpkeep takes the upkeep lock, or the one this process was handed
// (AdoptUpkeepLock); the returned func lets go of it.
func (e *Engine) lockUpkeep(ctx context.Context) (unlock func(), err error) {
	if f := e.upkeepLock; f != nil {
		e.upkeepLock = nil
		return func() { releaseLock(f) }, nil
	}
	return LockFile(ctx, filepath.Join(e.Location.Dir, UpkeepLockFile), 0)
}

// UpkeepDeferred reports whether a session start under DeferUpkeep left
// upkeep that is due.
func (e *Engine) UpkeepDeferred() bool { return e.upkeepDeferred.Load() }
