package engine

import (
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

func TestClockAtAndRollupRunAt(t *testing.T) {
	clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if at, err := ClockAt("", clock); err != nil || !at.Equal(clock) {
		t.Errorf("no flag: %v %v", at, err)
	}
	if at, err := ClockAt("2026-01-31", clock); err != nil || !at.Equal(time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("flag: %v %v", at, err)
	}
	if _, err := ClockAt("tomorrowish", clock); err == nil {
		t.Error("a malformed --now was accepted")
	}
	for _, r := range []struct {
		dry bool
		now string
	}{{true, ""}, {false, "2026-01-31"}} {
		if _, err := RollupRunAt(r.dry, r.now, true, clock); recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("explain with %+v: %v", r, err)
		}
	}
	run, err := RollupRunAt(true, "", false, clock)
	if err != nil || !run.DryRun || !run.Now.Equal(clock) {
		t.Errorf("dry run: %+v %v", run, err)
	}
	if run, err := RollupRunAt(false, "", true, clock); err != nil || !run.Now.Equal(clock) {
		t.Errorf("explain alone: %+v %v", run, err)
	}
}
