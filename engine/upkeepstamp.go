package engine

import (
	"os"
	"path/filepath"
	"strings"
	"time"
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
