// Package timeq reads time expressions in a query ("yesterday", "last
// week", "in May 2023", "2 years ago", "since March", "recently") and turns
// them into a window over when memories occurred, relative to a reference
// time. It is pure: the caller passes now.
package timeq

import (
	"regexp"

	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/lazyre"
)

// Parser implements recall.TimeParser with Parse.
type Parser struct{}

var _ recall.TimeParser = Parser{}

// ParseTime returns Parse(text, now).
func (Parser) ParseTime(text string, now time.Time) recall.TimeIntent { return Parse(text, now) }

// span is a recognised expression: its byte range in the text and the
// window it names.
type span struct {
	start, end  int
	since, till time.Time
	recent      bool
}

// rule recognises one kind of expression; window returns the range it
// names, or ok=false when the match is not a time after all.
type rule struct {
	re     *regexp.Regexp
	window func(m []string, now time.Time) (since, till time.Time, ok bool)
}

// Parse finds the time expressions in text relative to now. Several windows
// are intersected; one that would leave nothing is ignored.
func Parse(text string, now time.Time) recall.TimeIntent {
	f := fold(text)
	lower := f.lower
	var spans []span
	taken := make([]bool, len(lower)+1)
	for _, r := range rules() {
		for _, loc := range r.re.FindAllStringSubmatchIndex(lower, -1) {
			if overlaps(taken, loc[0], loc[1]) {
				continue
			}
			m := submatches(lower, loc)
			sp := span{start: loc[0], end: loc[1]}
			if r.window == nil {
				sp.recent = true
			} else {
				s, t, ok := r.window(m, now)
				if !ok {
					continue
				}
				sp.since, sp.till = s, t
				sp.start, sp.since, sp.till = openEnded(lower, sp.start, s, t)
			}
			for i := sp.start; i < sp.end; i++ {
				taken[i] = true
			}
			spans = append(spans, sp)
		}
	}
	for i := range spans { // offsets in lower become offsets in text
		spans[i].start, spans[i].end = f.at(spans[i].start), f.at(spans[i].end)
	}
	return intent(text, spans)
}

func overlaps(taken []bool, from, to int) bool {
	for i := from; i < to; i++ {
		if taken[i] {
			return true
		}
	}
	return false
}

func submatches(s string, loc []int) []string {
	m := make([]string, len(loc)/2)
	for i := range m {
		if loc[2*i] >= 0 {
			m[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return m
}

// boundary words turn a window into an open range: "since March" starts
// at March, "before 2020" ends where 2020 starts, "after May" starts when
// May ends.
var (
	boundary       = lazyre.New(`\b(since|after|before|until|till|from)\s+$`)
	boundaryInside = lazyre.New(`^(since|after|before|until|till|from)\s+`)
)

func openEnded(lower string, start int, since, till time.Time) (int, time.Time, time.Time) {
	word := ""
	if m := boundaryInside().FindStringSubmatch(lower[start:]); m != nil {
		word = m[1]
	} else if m := boundary().FindStringSubmatchIndex(lower[:start]); m != nil {
		word, start = lower[m[2]:m[3]], m[0]
	} else {
		return start, since, till
	}
	switch word {
	case "since", "from":
		return start, since, time.Time{}
	case "after":
		return start, till, time.Time{}
	default: // before, until, till
		return start, time.Time{}, since
	}
}

// intent combines the spans and strips them from the text.
func intent(text string, spans []span) recall.TimeIntent {
	var in recall.TimeIntent
	var since, till time.Time
	keep := []byte(text)
	for _, sp := range spans {
		in.Found = append(in.Found, strings.TrimSpace(text[sp.start:sp.end]))
		for i := sp.start; i < sp.end; i++ {
			keep[i] = ' '
		}
		if sp.recent {
			in.Recent = true
			continue
		}
		s, t := since, till
		if !sp.since.IsZero() && (s.IsZero() || sp.since.After(s)) {
			s = sp.since
		}
		if !sp.till.IsZero() && (t.IsZero() || sp.till.Before(t)) {
			t = sp.till
		}
		if !s.IsZero() && !t.IsZero() && !s.Before(t) {
			continue // contradicts an earlier expression: ignore it
		}
		since, till = s, t
	}
	if !since.IsZero() {
		in.Since = &since
	}
	if !till.IsZero() {
		in.Until = &till
	}
	in.Text = strings.Join(strings.Fields(string(keep)), " ")
	if in.Text == "" || strings.Trim(in.Text, " ?!.,;:") == "" {
		in.Text = text
	}
	return in
}
