package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// The session-start upkeep runs once per interval: a second session start
// soon after a complete run skips the rollups, and the work it skipped is
// done by the first start after the interval (nothing is lost).
func TestEngine_SessionUpkeepStamp(t *testing.T) {
	ctx := context.Background()
	e := roomyEngine(t)
	stamp := filepath.Join(e.Location.Dir, engine.UpkeepStampFile)
	rollups := func() int {
		t.Helper()
		svc, err := e.Rollups()
		if err != nil {
			t.Fatal(err)
		}
		all, err := svc.FindRollups(ctx, recall.RollupFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return len(all)
	}
	observeOn := func(day time.Time) {
		t.Helper()
		obs := []*recall.Observation{
			{Type: recall.ObsCommand, Session: "old", Content: "make build on " + day.Format(time.DateOnly), At: day},
			{Type: recall.ObsCommand, Session: "old", Content: "go test ./... on " + day.Format(time.DateOnly), At: day.Add(time.Minute)},
		}
		if err := e.Observe(ctx, obs); err != nil {
			t.Fatal(err)
		}
	}
	start := func(id string) {
		t.Helper()
		if _, err := e.StartSession(ctx, &recall.Session{ID: id, Agent: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	today := e.Now().Truncate(24 * time.Hour)

	observeOn(today.AddDate(0, 0, -10))
	start("s1")
	first := rollups()
	if first == 0 {
		t.Fatal("the first session start rolled nothing up")
	}
	if _, err := os.Stat(stamp); err != nil {
		t.Fatalf("a complete upkeep run leaves no stamp: %v", err)
	}

	observeOn(today.AddDate(0, 0, -5))
	start("s2")
	if got := rollups(); got != first {
		t.Fatalf("a session start right after a complete upkeep made %d rollups, want it skipped (%d)", got, first)
	}

	// An hour later (or a clock that moved back) the upkeep is due again
	// and does what was skipped.
	old := e.Now().Add(-2 * time.Hour).Format(time.RFC3339Nano)
	if err := os.WriteFile(stamp, []byte(old+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start("s3")
	if got := rollups(); got <= first {
		t.Fatalf("the upkeep due after the interval made no rollups (%d, before %d)", got, first)
	}
}

// A stamp that cannot be read (a torn write, a hand edit) never stops the
// upkeep: it runs and rewrites the stamp.
func TestEngine_SessionUpkeepBadStamp(t *testing.T) {
	ctx := context.Background()
	e := roomyEngine(t)
	stamp := filepath.Join(e.Location.Dir, engine.UpkeepStampFile)
	if err := os.WriteFile(stamp, []byte("not a time"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.StartSession(ctx, &recall.Session{ID: "s1", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(stamp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := time.Parse(time.RFC3339Nano, string(b[:len(b)-1])); err != nil {
		t.Fatalf("stamp after the upkeep ran = %q, want a time", b)
	}
}

// An upkeep run cut short (here a cancelled context, as a hook past its
// budget or a killed process) records no stamp, so the next session start
// runs the upkeep in full.
func TestEngine_SessionUpkeepCutShort(t *testing.T) {
	e := roomyEngine(t)
	stamp := filepath.Join(e.Location.Dir, engine.UpkeepStampFile)
	day := e.Now().Truncate(24*time.Hour).AddDate(0, 0, -3)
	if err := e.Observe(context.Background(), []*recall.Observation{{Type: recall.ObsCommand, Session: "old", Content: "make build", At: day}}); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = e.StartSession(cancelled, &recall.Session{ID: "s1", Agent: "test"})
	if _, err := os.Stat(stamp); !os.IsNotExist(err) {
		t.Fatalf("a cut-short upkeep left a stamp (%v): the next start would skip its work", err)
	}
	if _, err := e.StartSession(context.Background(), &recall.Session{ID: "s2", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	svc, err := e.Rollups()
	if err != nil {
		t.Fatal(err)
	}
	if all, err := svc.FindRollups(context.Background(), recall.RollupFilter{}); err != nil || len(all) == 0 {
		t.Fatalf("after the cut-short run, the next start rolled up %d (%v), want the skipped work done", len(all), err)
	}
	if _, err := os.Stat(stamp); err != nil {
		t.Fatalf("the complete run left no stamp: %v", err)
	}
}

// roomyEngine opens an engine whose session-start upkeep has time to
// finish even under the race detector: the tests are about what a
// complete or a cut-short run leaves, not about the budget.
func roomyEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e := openEngine(t)
	e.Config.Rollup.SessionBudgetMS = 60_000
	return e
}

// With DeferUpkeep (the SessionStart hook) a session start leaves the
// upkeep and says so; SessionUpkeep then does it, unless another process
// holds the upkeep lock, and records the complete run.
func TestEngine_SessionUpkeepDeferred(t *testing.T) {
	ctx := context.Background()
	e := roomyEngine(t)
	e.DeferUpkeep = true
	stamp := filepath.Join(e.Location.Dir, engine.UpkeepStampFile)
	day := e.Now().Truncate(24*time.Hour).AddDate(0, 0, -3)
	if err := e.Observe(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "old", Content: "make build", At: day}}); err != nil {
		t.Fatal(err)
	}
	svc, err := e.Rollups()
	if err != nil {
		t.Fatal(err)
	}
	rollups := func() int {
		t.Helper()
		all, err := svc.FindRollups(ctx, recall.RollupFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return len(all)
	}
	if _, err := e.StartSession(ctx, &recall.Session{ID: "s1", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	if n := rollups(); n != 0 || !e.UpkeepDeferred() {
		t.Fatalf("a deferring session start made %d rollups, deferred=%v; want 0 and true", n, e.UpkeepDeferred())
	}
	if _, err := os.Stat(stamp); !os.IsNotExist(err) {
		t.Fatalf("a deferred upkeep left a stamp (%v)", err)
	}

	unlock, err := engine.LockFile(ctx, filepath.Join(e.Location.Dir, engine.UpkeepLockFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	e.SessionUpkeep(ctx, 0)
	if n := rollups(); n != 0 {
		t.Fatalf("the upkeep ran beside another process holding its lock (%d rollups)", n)
	}
	unlock()

	e.SessionUpkeep(ctx, 0)
	if rollups() == 0 {
		t.Fatal("the deferred upkeep rolled nothing up")
	}
	if _, err := os.Stat(stamp); err != nil {
		t.Fatalf("a complete deferred upkeep left no stamp: %v", err)
	}
}

// The paced upkeep of a process of its own finishes even when its first
// slices are too short to roll up a single bucket: they grow until one
// does, and the complete run is recorded.
func TestEngine_SessionUpkeepPacedGrowsSlices(t *testing.T) {
	e := roomyEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	day := e.Now().Truncate(24*time.Hour).AddDate(0, 0, -3)
	if err := e.Observe(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "old", Content: "make build", At: day}}); err != nil {
		t.Fatal(err)
	}
	e.SessionUpkeepPaced(ctx, time.Nanosecond, time.Millisecond)
	if ctx.Err() != nil {
		t.Fatal("the paced upkeep ran until its deadline")
	}
	if _, err := os.Stat(filepath.Join(e.Location.Dir, engine.UpkeepStampFile)); err != nil {
		t.Fatalf("the paced upkeep recorded no complete run: %v", err)
	}
}

// A deferring session start leaves no upkeep behind while another process
// holds the upkeep lock (that process does the work; one started now
// would only open the store to find the lock taken), and leaves one again
// once the lock is free, with nothing stamped in between.
func TestEngine_SessionUpkeepNotDeferredWhileRunning(t *testing.T) {
	ctx := context.Background()
	e := roomyEngine(t)
	e.DeferUpkeep = true
	day := e.Now().Truncate(24*time.Hour).AddDate(0, 0, -3)
	if err := e.Observe(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "old", Content: "make build", At: day}}); err != nil {
		t.Fatal(err)
	}
	unlock, err := engine.LockFile(ctx, filepath.Join(e.Location.Dir, engine.UpkeepLockFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.StartSession(ctx, &recall.Session{ID: "s1", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	if e.UpkeepDeferred() {
		t.Fatal("a session start left an upkeep while another process held the upkeep lock")
	}
	unlock()
	if _, err := e.StartSession(ctx, &recall.Session{ID: "s2", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	if !e.UpkeepDeferred() {
		t.Fatal("a session start with the lock free and the upkeep due left none")
	}
	if _, err := os.Stat(filepath.Join(e.Location.Dir, engine.UpkeepStampFile)); !os.IsNotExist(err) {
		t.Fatalf("no upkeep ran, yet a stamp exists (%v)", err)
	}
}
