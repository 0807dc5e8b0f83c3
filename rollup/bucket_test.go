package rollup_test

import (
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rollup"
)

func mustPolicy(t *testing.T, zone string) *rollup.Policy {
	t.Helper()
	p, err := rollup.NewPolicy(zone)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func TestPolicy_Bucket(t *testing.T) {
	p := mustPolicy(t, "UTC")
	tests := []struct {
		name, typ, at, start, end string
	}{
		{"4hFirst", recall.Bucket4h, "2026-01-02T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-02T04:00:00Z"},
		{"4hLastMoment", recall.Bucket4h, "2026-01-02T03:59:59Z", "2026-01-02T00:00:00Z", "2026-01-02T04:00:00Z"},
		{"4hEvening", recall.Bucket4h, "2026-01-02T22:10:00Z", "2026-01-02T20:00:00Z", "2026-01-03T00:00:00Z"},
		{"Daily", recall.BucketDaily, "2026-01-02T23:59:59Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"},
		{"WeekFromMonday", recall.BucketWeekly, "2026-01-05T00:00:00Z", "2026-01-05T00:00:00Z", "2026-01-12T00:00:00Z"},
		{"WeekFromSunday", recall.BucketWeekly, "2026-01-11T23:00:00Z", "2026-01-05T00:00:00Z", "2026-01-12T00:00:00Z"},
		{"WeekAcrossYear", recall.BucketWeekly, "2026-01-01T12:00:00Z", "2025-12-29T00:00:00Z", "2026-01-05T00:00:00Z"},
		{"MonthEnd", recall.BucketMonthly, "2026-01-31T23:59:59Z", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"},
		{"LeapFebruary", recall.BucketMonthly, "2028-02-29T12:00:00Z", "2028-02-01T00:00:00Z", "2028-03-01T00:00:00Z"},
		{"December", recall.BucketMonthly, "2026-12-31T12:00:00Z", "2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := p.Bucket(tt.typ, utc(tt.at))
			if got, want := b.Start, utc(tt.start); !got.Equal(want) {
				t.Errorf("start = %v, want %v", got, want)
			}
			if got, want := b.End, utc(tt.end); !got.Equal(want) {
				t.Errorf("end = %v, want %v", got, want)
			}
		})
	}
	t.Run("MonthReadyWhenLastWeekEnds", func(t *testing.T) {
		// January 2026 ends on a Saturday; its last week starts Monday the
		// 26th and ends Monday 2 February.
		b := p.Bucket(recall.BucketMonthly, utc("2026-01-10T00:00:00Z"))
		if got, want := b.Ready, utc("2026-02-02T00:00:00Z"); !got.Equal(want) {
			t.Fatalf("ready = %v, want %v", got, want)
		}
	})
	t.Run("UnknownType", func(t *testing.T) {
		if b := p.Bucket("hourly", utc("2026-01-10T00:00:00Z")); !b.Start.IsZero() {
			t.Fatalf("got %+v", b)
		}
	})
	t.Run("UnknownZone", func(t *testing.T) {
		if _, err := rollup.NewPolicy("Mars/Olympus"); recall.ErrorCode(err) != recall.EINVALID {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestPolicy_BucketTimezone(t *testing.T) {
	p := mustPolicy(t, "Europe/Berlin")
	t.Run("DayInZone", func(t *testing.T) {
		// 23:30 UTC on 14 January is 00:30 on the 15th in Berlin (UTC+1).
		b := p.Bucket(recall.BucketDaily, utc("2026-01-14T23:30:00Z"))
		if got, want := b.Start, utc("2026-01-14T23:00:00Z"); !got.Equal(want) {
			t.Fatalf("start = %v, want %v", got, want)
		}
	})
	t.Run("SpringForwardDayHas23Hours", func(t *testing.T) {
		// Clocks jump from 02:00 to 03:00 on 29 March 2026.
		b := p.Bucket(recall.BucketDaily, utc("2026-03-29T12:00:00Z"))
		if got := b.End.Sub(b.Start); got != 23*time.Hour {
			t.Fatalf("day lasts %v", got)
		}
		first := p.Bucket(recall.Bucket4h, utc("2026-03-29T00:30:00Z")) // 02:30 doesn't exist; this is 01:30 CET
		if got := first.End.Sub(first.Start); got != 3*time.Hour {
			t.Fatalf("first 4h bucket lasts %v", got)
		}
	})
	t.Run("FallBackDayHas25Hours", func(t *testing.T) {
		b := p.Bucket(recall.BucketDaily, utc("2026-10-25T12:00:00Z"))
		if got := b.End.Sub(b.Start); got != 25*time.Hour {
			t.Fatalf("day lasts %v", got)
		}
		first := p.Bucket(recall.Bucket4h, utc("2026-10-25T00:30:00Z")) // 02:30 CEST, the first of two
		if got := first.End.Sub(first.Start); got != 5*time.Hour {
			t.Fatalf("first 4h bucket lasts %v", got)
		}
	})
	t.Run("BucketsTileAcrossDST", func(t *testing.T) {
		for _, typ := range recall.BucketTypes {
			at := utc("2026-03-20T00:00:00Z")
			b := p.Bucket(typ, at)
			for i := 0; i < 60; i++ {
				next := p.Bucket(typ, b.End)
				if !next.Start.Equal(b.End) || !next.End.After(next.Start) {
					t.Fatalf("%s: bucket %v–%v is followed by %v–%v", typ, b.Start, b.End, next.Start, next.End)
				}
				b = next
			}
		}
	})
	t.Run("WeekStartsMondayLocal", func(t *testing.T) {
		// Sunday 23:30 UTC is Monday 00:30 in Berlin: a new week there.
		b := p.Bucket(recall.BucketWeekly, utc("2026-01-11T23:30:00Z"))
		if got, want := b.Start, utc("2026-01-11T23:00:00Z"); !got.Equal(want) {
			t.Fatalf("start = %v, want %v", got, want)
		}
	})
}

// FuzzPolicy_Bucket checks the invariants of every bucket: it holds the
// instant it was asked for and the next bucket starts where it ends.
func FuzzPolicy_Bucket(f *testing.F) {
	f.Add(int64(1774746000), uint8(0), uint8(1))
	f.Add(int64(1792890000), uint8(3), uint8(2))
	zones := []string{"UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago"}
	f.Fuzz(func(t *testing.T, sec int64, typ, zone uint8) {
		sec = sec % (200 * 365 * 86400)
		p, err := rollup.NewPolicy(zones[int(zone)%len(zones)])
		if err != nil {
			t.Skip(err)
		}
		at := time.Unix(sec, 0)
		kind := recall.BucketTypes[int(typ)%len(recall.BucketTypes)]
		b := p.Bucket(kind, at)
		if at.Before(b.Start) || !at.Before(b.End) {
			t.Fatalf("%s bucket %v–%v does not hold %v", kind, b.Start, b.End, at)
		}
		if next := p.Bucket(kind, b.End); !next.Start.Equal(b.End) {
			t.Fatalf("%s bucket after %v starts at %v", kind, b.End, next.Start)
		}
	})
}
