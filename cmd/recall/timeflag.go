package main

import (
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/timeq"
)

// parseBound reads --since or --until: a time parseTime accepts, or the
// time words a query understands ("yesterday", "last week", "3 days
// ago"), relative to now. --since takes the start of the window the words
// name, --until its end, so "--since last week --until yesterday" covers
// last Monday through the end of yesterday.
func parseBound(flag, s string, now time.Time) (time.Time, error) {
	if t, err := engine.ParseTime(flag, s); err == nil {
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
