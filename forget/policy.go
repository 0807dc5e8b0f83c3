// Package forget is recall's forgetting policy: which purge criteria are
// valid, what retention keeps by default, when a sweep is due and when
// retention is worth enabling. It is pure: the store does the deleting.
package forget

import (
	"maps"
	"time"

	"github.com/recall-mem/recall"
)

// DefaultDays is seed 003's retention table: high-value types live longest,
// noise decays fastest. Types not listed are never swept.
func DefaultDays() map[string]int {
	return map[string]int{
		recall.ObsUserPrompt:   730,
		recall.ObsCommandError: 730,
		recall.ObsFileWrite:    365,
		recall.ObsFileEdit:     365,
		recall.ObsSessionStart: 365,
		recall.ObsSessionEnd:   365,
		recall.ObsFileRead:     90,
		recall.ObsSearch:       90,
		recall.ObsMCPCall:      90,
		recall.ObsCommand:      180,
	}
}

// Policy builds a retention policy from configuration: the user's days
// override the defaults type by type and 0 turns a type off, so a config
// that names one type keeps the defaults of all the others.
func Policy(enabled bool, days map[string]int, compactedDays int) recall.RetentionPolicy {
	merged := DefaultDays()
	maps.Copy(merged, days)
	for t, d := range merged {
		if d <= 0 {
			delete(merged, t)
		}
	}
	return recall.RetentionPolicy{Enabled: enabled, Days: merged, CompactedDays: max(compactedDays, 0)}
}

// Day is the unit of every retention period.
const Day = 24 * time.Hour

// PurgeCutoff is the moment before which `--older-than days` matches. It is
// one second past now, so that --older-than 0 matches everything, also
// what was written in the current second (seed 003, deviation 3).
func PurgeCutoff(now time.Time, days int) time.Time {
	return now.Add(time.Second).Add(-time.Duration(days) * Day)
}

// OpportunisticThreshold is how many observations older than a day make a
// session start run a sweep (seed 003): below it, a sweep cannot be worth
// the time it adds to a session start.
const OpportunisticThreshold = 100

// ShouldSweep reports whether a session start should sweep, given how many
// observations are older than a day.
func ShouldSweep(p recall.RetentionPolicy, olderThanADay int) bool {
	return p.Enabled && olderThanADay >= OpportunisticThreshold
}
