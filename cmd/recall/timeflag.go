package main

import (
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/timeq"
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

// parseBound reads --since or --until: a time parseTime accepts, or the
// time words a query understands ("yesterday", "last week", "3 days
// ago"), relative to now. --since takes the start of the window the words
// name, --until its end, so "--since last week --until yesterday" covers
// last Monday through the end of yesterday.
func parseBound(flag, s string, now time.Time) (time.Time, error) {
	if t, err := parseTime(flag, s); err == nil {
		return t, nil
	}
	in := timeq.Parser{}.ParseTime(s, now)
	if len(in.Found) > 0 && in.Rest(s) == "" {
		switch {
		case flag == "since" && in.Since != nil:
			return in.Since.UTC(), nil
		case flag == "until" && in.Until != nil:
			return in.Until.UTC(), nil
		case flag == "until" && in.Since != nil: // "since March" as an end: its start
			return in.Since.UTC(), nil
		case flag == "since" && in.Until != nil: // "before 2020" as a start: its end
			return in.Until.UTC(), nil
		}
	}
	return time.Time{}, recall.Errorf(recall.EINVALID, "Invalid time for --%s: %q; use a date like 2026-01-31, an RFC 3339 time like 2026-01-31T14:00:00Z, or words like yesterday, last week, 3 days ago.", flag, s)
}
