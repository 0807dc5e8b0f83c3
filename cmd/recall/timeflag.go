package main

import (
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// parseTime reads a time flag: RFC 3339, "2006-01-02T15:04", or a date
// (midnight UTC).
func parseTime(flag, s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, recall.Errorf(recall.EINVALID, "Invalid time for --%s: %q; use a date like 2026-01-31 or an RFC 3339 time like 2026-01-31T14:00:00Z.", flag, s)
}
