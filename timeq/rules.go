package timeq

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	monthRE   = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`
	weekdayRE = `(monday|tuesday|wednesday|thursday|friday|saturday|sunday)`
	numberRE  = `(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|a few|couple of|a couple of|several)`
	unitRE    = `(day|week|month|year)s?`
)

// rules in priority order: longer, more specific expressions first, so
// "on 3 June, 2023" is one day and not the month June. They are compiled
// at the first Parse, not when the package initialises: every recall
// process links timeq, and most (hooks, writes) never read a time.
var rules = sync.OnceValue(func() []rule {
	return []rule{
		{re(`\b(?:on\s+)?(\d{4})-(\d{2})-(\d{2})\b`), func(m []string, now time.Time) (time.Time, time.Time, bool) {
			y, mo, d := atoi(m[1]), atoi(m[2]), atoi(m[3])
			return dayOf(y, time.Month(mo), d, now)
		}},
		{re(`\b(?:on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRE + `,?\s+(\d{4})\b`), func(m []string, now time.Time) (time.Time, time.Time, bool) {
			return dayOf(atoi(m[3]), month(m[2]), atoi(m[1]), now)
		}},
		{re(`\b(?:on\s+)?` + monthRE + `\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`), func(m []string, now time.Time) (time.Time, time.Time, bool) {
			return dayOf(atoi(m[3]), month(m[1]), atoi(m[2]), now)
		}},
		{re(`\b(?:(?:in|during)\s+)?(?:early\s+|late\s+|mid\s+)?` + monthRE + `,?\s+(?:of\s+)?(\d{4})\b`), func(m []string, now time.Time) (time.Time, time.Time, bool) {
			s := time.Date(atoi(m[2]), month(m[1]), 1, 0, 0, 0, 0, now.Location())
			return s, s.AddDate(0, 1, 0), true
		}},
		{re(`\b(?:in|during|since|before|after|until)\s+(?:early\s+|late\s+|mid\s+)?` + monthRE + `\b`), func(m []string, now time.Time) (time.Time, time.Time, bool) {
			// A month without a year is the latest one that has begun.
			mo := month(m[1])
			y := now.Year()
			if mo > now.Month() {
				y--
			}
			s := time.Date(y, mo, 1, 0, 0, 0, 0, now.Location())
			return s, s.AddDate(0, 1, 0), true
		}},
		{re(`\b(?:in|during|since|before|after|until)\s+(\d{4})\b`), func(m []string, now time.Time) (time.Time, time.Time, bool) {
			y := atoi(m[1])
			if y < 1900 || y > 2200 {
				return time.Time{}, time.Time{}, false
			}
			s := time.Date(y, 1, 1, 0, 0, 0, 0, now.Location())
			return s, s.AddDate(1, 0, 0), true
		}},
		{re(`\b(today|tonight|this morning|this afternoon|this evening)\b`), func(_ []string, now time.Time) (time.Time, time.Time, bool) {
			s := midnight(now)
			return s, s.AddDate(0, 0, 1), true
		}},
		{re(`\b(?:the\s+day\s+before\s+yesterday)\b`), func(_ []string, now time.Time) (time.Time, time.Time, bool) {
			s := midnight(now).AddDate(0, 0, -2)
			return s, s.AddDate(0, 0, 1), true
		}},
		{re(`\byesterday\b`), func(_ []string, now time.Time) (time.Time, time.Time, bool) {
			s := midnight(now).AddDate(0, 0, -1)
			return s, s.AddDate(0, 0, 1), true
		}},
		{re(`\b(?:in\s+)?(?:the\s+)?(?:last|past|previous)\s+` + numberRE + `\s+` + unitRE + `\b`), func(m []string, now time.Time) (time.Time, time.Time, bool) {
			n, ok := number(m[1])
			if !ok {
				return time.Time{}, time.Time{}, false
			}
			return add(now, m[2], -n), now.Add(time.Nanosecond), true
		}},
		{re(`\b` + numberRE + `\s+` + unitRE + `\s+ago\b`), func(m []string, now time.Time) (time.Time, time.Time, bool) {
			n, ok := number(m[1])
			if !ok {
				return time.Time{}, time.Time{}, false
			}
			return calendar(add(now, m[2], -n), m[2])
		}},
		{re(`\b(this|last|past|previous)\s+(week|month|year|weekend)\b`), func(m []string, now time.Time) (time.Time, time.Time, bool) {
			if m[1] == "past" { // rolling: the past week is the last seven days
				return add(now, m[2], -1), now.Add(time.Nanosecond), true
			}
			if m[2] == "weekend" {
				return weekend(now, m[1] == "last")
			}
			at := now
			if m[1] != "this" {
				at = add(now, m[2], -1)
			}
			return calendar(at, m[2])
		}},
		{re(`\b(?:(last|on|this)\s+)` + weekdayRE + `\b`), func(m []string, now time.Time) (time.Time, time.Time, bool) {
			d := midnight(now)
			want := weekday(m[2])
			back := (int(d.Weekday()) - int(want) + 7) % 7
			if back == 0 && m[1] == "last" {
				back = 7
			}
			s := d.AddDate(0, 0, -back)
			return s, s.AddDate(0, 0, 1), true
		}},
		{re(`\b(?:most\s+recent(?:ly)?|recently|recent|lately|latest|newest|these\s+days|nowadays)\b`), nil},
	}
})

func re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

var numberWords = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "few": 3, "a few": 3, "couple of": 2, "a couple of": 2, "several": 3}

func number(s string) (int, bool) {
	if n, ok := numberWords[s]; ok {
		return n, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0 && n <= 500
}

var months = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}

func month(s string) time.Month {
	if len(s) > 3 && s != "sept" {
		s = s[:3]
	}
	return months[s]
}

func weekday(s string) time.Weekday {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.EqualFold(d.String(), s) {
			return d
		}
	}
	return time.Sunday
}

func midnight(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
}

func dayOf(y int, mo time.Month, d int, now time.Time) (time.Time, time.Time, bool) {
	if mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1900 || y > 2200 {
		return time.Time{}, time.Time{}, false
	}
	s := time.Date(y, mo, d, 0, 0, 0, 0, now.Location())
	if s.Day() != d {
		return time.Time{}, time.Time{}, false // 31 February
	}
	return s, s.AddDate(0, 0, 1), true
}

// add moves t by n units (day, week, month, year, or weekend as a week).
func add(t time.Time, unit string, n int) time.Time {
	switch strings.TrimSuffix(unit, "s") {
	case "day":
		return t.AddDate(0, 0, n)
	case "week", "weekend":
		return t.AddDate(0, 0, 7*n)
	case "month":
		return t.AddDate(0, n, 0)
	default:
		return t.AddDate(n, 0, 0)
	}
}

// calendar returns the calendar unit (day, week from Monday, month, year)
// that holds t.
func calendar(t time.Time, unit string) (time.Time, time.Time, bool) {
	d := midnight(t)
	switch strings.TrimSuffix(unit, "s") {
	case "day":
		return d, d.AddDate(0, 0, 1), true
	case "week":
		s := d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
		return s, s.AddDate(0, 0, 7), true
	case "month":
		s := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, t.Location())
		return s, s.AddDate(0, 1, 0), true
	default:
		s := time.Date(t.Year(), 1, 1, 0, 0, 0, 0, t.Location())
		return s, s.AddDate(1, 0, 0), true
	}
}

// weekend returns Saturday and Sunday of this week, or of the latest
// weekend that has ended when last is set.
func weekend(now time.Time, last bool) (time.Time, time.Time, bool) {
	d := midnight(now)
	sat := d.AddDate(0, 0, (int(time.Saturday)-int(d.Weekday())+7)%7)
	if d.Weekday() == time.Sunday {
		sat = d.AddDate(0, 0, -1)
	}
	if last {
		sat = sat.AddDate(0, 0, -7)
	}
	return sat, sat.AddDate(0, 0, 2), true
}
