package engine

import (
	"time"

	"github.com/recall-mem/recall"
)

// ClockAt is a command's reference time: the time flag gives (--now),
// else clock.
func ClockAt(flag string, clock time.Time) (time.Time, error) {
	if flag == "" {
		return clock, nil
	}
	return ParseTime("now", flag)
}

// RollupRunAt is the rollup run asked for: a dry run or not, at the time
// now gives (else clock). Explaining a rollup takes neither.
func RollupRunAt(dryRun bool, now string, explain bool, clock time.Time) (recall.RollupRun, error) {
	if explain && (dryRun || now != "") {
		return recall.RollupRun{}, recall.Errorf(recall.EINVALID, "--explain cannot be combined with --dry-run or --now")
	}
	at, err := ClockAt(now, clock)
	return recall.RollupRun{DryRun: dryRun, Now: at}, err
}
