package timeq_test

import (
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall/timeq"
)

// now is Wednesday 18 October 2023, 15:00 UTC.
var now = time.Date(2023, 10, 18, 15, 0, 0, 0, time.UTC)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestParse(t *testing.T) {
	open := time.Time{}
	tests := []struct {
		query        string
		since, until time.Time
		recent       bool
		text         string
	}{
		{"what did I fix yesterday", day(2023, 10, 17), day(2023, 10, 18), false, "what did I fix"},
		{"deploys today", day(2023, 10, 18), day(2023, 10, 19), false, "deploys"},
		{"decisions last week", day(2023, 10, 9), day(2023, 10, 16), false, "decisions"},
		{"notes this week", day(2023, 10, 16), day(2023, 10, 23), false, "notes"},
		{"bugs this month", day(2023, 10, 1), day(2023, 11, 1), false, "bugs"},
		{"bugs last month", day(2023, 9, 1), day(2023, 10, 1), false, "bugs"},
		{"goals last year", day(2022, 1, 1), day(2023, 1, 1), false, "goals"},
		{"When did Melanie go camping in June?", day(2023, 6, 1), day(2023, 7, 1), false, "When did Melanie go camping ?"},
		{"trip in December", day(2022, 12, 1), day(2023, 1, 1), false, "trip"},
		{"What did Maria donate in December 2023?", day(2023, 12, 1), day(2024, 1, 1), false, "What did Maria donate ?"},
		{"workout class May 2023", day(2023, 5, 1), day(2023, 6, 1), false, "workout class"},
		{"painting on October 13, 2023", day(2023, 10, 13), day(2023, 10, 14), false, "painting"},
		{"news on 3 June, 2023", day(2023, 6, 3), day(2023, 6, 4), false, "news"},
		{"dinner 2023-05-03", day(2023, 5, 3), day(2023, 5, 4), false, "dinner"},
		{"the move 2 years ago", day(2021, 1, 1), day(2022, 1, 1), false, "the move"},
		{"a week ago", day(2023, 10, 9), day(2023, 10, 16), false, "a week ago"},
		{"what happened three days ago", day(2023, 10, 15), day(2023, 10, 16), false, "what happened"},
		{"errors in the past 3 days", day(2023, 10, 15).Add(15 * time.Hour), now.Add(time.Nanosecond), false, "errors"},
		{"standup last Tuesday", day(2023, 10, 17), day(2023, 10, 18), false, "standup"},
		{"standup last Wednesday", day(2023, 10, 11), day(2023, 10, 12), false, "standup"},
		{"hike last weekend", day(2023, 10, 14), day(2023, 10, 16), false, "hike"},
		{"hike this weekend", day(2023, 10, 21), day(2023, 10, 23), false, "hike"},
		{"changes since March", day(2023, 3, 1), open, false, "changes"},
		{"changes since 2021", day(2021, 1, 1), open, false, "changes"},
		{"releases before 2020", open, day(2020, 1, 1), false, "releases"},
		{"releases after May 2023", day(2023, 6, 1), open, false, "releases"},
		{"What did Melanie paint recently?", open, open, true, "What did Melanie paint ?"},
		{"latest design notes", open, open, true, "design notes"},
		{"may I deploy on friday", day(2023, 10, 13), day(2023, 10, 14), false, "may I deploy"},
		{"in 12345 steps", open, open, false, "in 12345 steps"},
		{"31 February 2023 plan", day(2023, 2, 1), day(2023, 3, 1), false, "31 plan"},
		{"plain words", open, open, false, "plain words"},
		// Lower-casing changes byte lengths ("Ⱥ" is 2 bytes, "ⱥ" 3; the
		// Kelvin sign is 3, "k" 1; an invalid byte becomes a 3-byte U+FFFD),
		// so offsets found in a lower-cased copy must map back to the text.
		{"Ⱥ in May 2023", day(2023, 5, 1), day(2023, 6, 1), false, "Ⱥ"},
		{"ȺȺȺȺ notes in May 2023 done", day(2023, 5, 1), day(2023, 6, 1), false, "ȺȺȺȺ notes done"},
		{"\u212a bugs last wee\u212a", day(2023, 10, 9), day(2023, 10, 16), false, "\u212a bugs"},
		{"\xff\xfe in May 2023", day(2023, 5, 1), day(2023, 6, 1), false, "\xff\xfe"},
		{"İİİ since March", day(2023, 3, 1), open, false, "İİİ"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := timeq.Parse(tt.query, now)
			if !eq(got.Since, tt.since) || !eq(got.Until, tt.until) {
				t.Errorf("window = [%v, %v), want [%v, %v)", got.Since, got.Until, tt.since, tt.until)
			}
			if got.Recent != tt.recent {
				t.Errorf("recent = %v, want %v", got.Recent, tt.recent)
			}
			if got.Text != tt.text {
				t.Errorf("text = %q, want %q", got.Text, tt.text)
			}
		})
	}
}

func eq(got *time.Time, want time.Time) bool {
	if want.IsZero() {
		return got == nil
	}
	return got != nil && got.Equal(want)
}

func TestParse_Intersects(t *testing.T) {
	got := timeq.Parse("since March before 2024 in 2023", now)
	if !eq(got.Since, day(2023, 3, 1)) || !eq(got.Until, day(2024, 1, 1)) {
		t.Fatalf("window = [%v, %v)", got.Since, got.Until)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"yesterday", "in May 2023", "since march", "2 years ago", "last tuesday", "on 3 June, 2023", "past 10 days", "2023-02-30", "Ⱥ in May 2023", "wee\u212a ago \xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in := timeq.Parse(s, now)
		if in.Since != nil && in.Until != nil && !in.Since.Before(*in.Until) {
			t.Fatalf("%q: empty window [%v, %v)", s, in.Since, in.Until)
		}
		if in.Text == "" && strings.TrimSpace(s) != "" {
			t.Fatalf("%q: text lost", s)
		}
		for _, f := range in.Found {
			if !strings.Contains(s, f) {
				t.Fatalf("%q: found %q, which is not in the text", s, f)
			}
		}
	})
}
