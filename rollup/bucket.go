// Package rollup is the pure part of time-tier rollups (seed 004): bucket
// math in a time zone, the deterministic summariser, intent detection and
// the searcher and context section that put rollups in front of the raw
// entries they cover. Storage lives in sqlite/; this package has no clock.
package rollup

import (
	"time"

	"github.com/recall-mem/recall"
)

// Policy implements recall.RollupPolicy for one time zone.
type Policy struct {
	// Loc is the zone buckets are cut in; nil means UTC. Days, weeks and
	// months follow its calendar, so a daylight-saving day lasts 23 or 25
	// hours and its first 4h bucket 3 or 5.
	Loc *time.Location
}

var _ recall.RollupPolicy = (*Policy)(nil)

// NewPolicy returns a policy for the named IANA zone ("" or "UTC" for
// UTC). Returns EINVALID for an unknown zone.
func NewPolicy(zone string) (*Policy, error) {
	if zone == "" || zone == "UTC" {
		return &Policy{Loc: time.UTC}, nil
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil, recall.Errorf(recall.EINVALID, "Unknown time zone %q in [rollup] timezone: use an IANA name like Europe/Berlin, or UTC.", zone)
	}
	return &Policy{Loc: loc}, nil
}

func (p *Policy) loc() *time.Location {
	if p == nil || p.Loc == nil {
		return time.UTC
	}
	return p.Loc
}

// Bucket returns the bucket of type typ holding t. Boundaries come from
// time.Date in the zone, so consecutive buckets always tile: the end of
// one is computed by the same normalisation as the start of the next, even
// across a daylight-saving change. Weeks start on Monday. An unknown type
// gives the zero bucket.
func (p *Policy) Bucket(typ string, t time.Time) recall.RollupBucket {
	loc := p.loc()
	l := t.In(loc)
	y, m, d := l.Date()
	day := func(dd int) time.Time { return time.Date(y, m, dd, 0, 0, 0, 0, loc) }
	b := recall.RollupBucket{Type: typ}
	switch typ {
	case recall.Bucket4h:
		h := l.Hour() / 4 * 4
		b.Start, b.End = time.Date(y, m, d, h, 0, 0, 0, loc), time.Date(y, m, d, h+4, 0, 0, 0, loc)
	case recall.BucketDaily:
		b.Start, b.End = day(d), day(d+1)
	case recall.BucketWeekly:
		off := (int(l.Weekday()) + 6) % 7 // days since Monday
		b.Start, b.End = day(d-off), day(d-off+7)
	case recall.BucketMonthly:
		b.Start, b.End = time.Date(y, m, 1, 0, 0, 0, 0, loc), time.Date(y, m+1, 1, 0, 0, 0, 0, loc)
		// Monthly rollups are built from the weekly rollups of weeks that
		// start in the month, so the month is ready when its last week ends.
		b.Ready = p.Bucket(recall.BucketWeekly, b.End.Add(-time.Nanosecond)).End
	default:
		return recall.RollupBucket{}
	}
	b.Start, b.End = b.Start.UTC(), b.End.UTC()
	if b.Ready.IsZero() {
		b.Ready = b.End
	}
	b.Ready = b.Ready.UTC()
	return b
}

// Finer returns the bucket type a tier is rolled up from, or "" for 4h
// (built from raw entries).
func Finer(typ string) string {
	for i, t := range recall.BucketTypes {
		if t == typ && i > 0 {
			return recall.BucketTypes[i-1]
		}
	}
	return ""
}
