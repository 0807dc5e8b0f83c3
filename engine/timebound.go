package engine

import (
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/timeq"
)

// ParseBound reads --since or --until: a time ParseTime accepts, or the
// time words a query understands ("yesterday", "last week", "3 days
// ago"), relative to now. --since takes the start of the window the words
// name, --until its end, so "--since last week --until yesterday" covers
// last Monday through the end of yesterday.
func ParseBound(flag, s string, now time.Time) (time.Time, error) {
	if t, err := ParseTime(flag, s); err == nil {
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

// ApplySearchTimes applies a search's time settings, as typed, to q.
// --since and --until read time words relative to --now (default the
// clock) as the query does.
func ApplySearchTimes(q *recall.SearchQuery, since, until, now, asOf string) error {
	parse := func(flag, v string) (*time.Time, error) {
		if v == "" {
			return nil, nil
		}
		t, err := ParseTime(flag, v)
		return &t, err
	}
	if n, err := parse("now", now); err != nil {
		return err
	} else if n != nil {
		q.Now = *n
	}
	ref := q.Now
	if ref.IsZero() {
		ref = time.Now().UTC()
	}
	for _, b := range []struct {
		flag, v string
		dst     **time.Time
	}{{"since", since, &q.Filter.Since}, {"until", until, &q.Filter.Until}} {
		if b.v == "" {
			continue
		}
		t, err := ParseBound(b.flag, b.v, ref)
		if err != nil {
			return err
		}
		*b.dst = &t
	}
	var err error
	if q.AsOf, err = parse("as-of", asOf); err != nil {
		return err
	}
	if q.Filter.Since != nil && q.Filter.Until != nil && !q.Filter.Since.Before(*q.Filter.Until) {
		return recall.Errorf(recall.EINVALID, "--since must be before --until")
	}
	return nil
}
