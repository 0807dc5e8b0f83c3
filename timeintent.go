package recall

import (
	"strings"
	"time"
)

// TimeIntent is what a query says about time: a window over when memories
// occurred ("yesterday", "in May 2023", "since March") and whether newer
// memories are preferred ("recently", "latest").
type TimeIntent struct {
	Since *time.Time `json:"since,omitempty"` // inclusive; nil: open
	Until *time.Time `json:"until,omitempty"` // exclusive; nil: open
	// Recent prefers newer memories without excluding older ones.
	Recent bool `json:"recent,omitempty"`
	// Text is the query with the time expressions removed.
	Text string `json:"text"`
	// Found lists the expressions recognised, as written.
	Found []string `json:"found,omitempty"`
}

// HasWindow reports whether the query names a time window.
func (in TimeIntent) HasWindow() bool { return in.Since != nil || in.Until != nil }

// Rest returns text, lower-cased, without the expressions in.Found. (A
// parser may leave a query that is only a time expression unchanged in
// Text, so that something is left to match; Rest says what else it asks.)
func (in TimeIntent) Rest(text string) string {
	text = strings.ToLower(text)
	for _, f := range in.Found {
		text = strings.ReplaceAll(text, strings.ToLower(f), " ")
	}
	return strings.TrimSpace(text)
}

// TimeParser reads the time expressions in a query relative to now. It
// never fails: text without them comes back unchanged.
type TimeParser interface {
	ParseTime(text string, now time.Time) TimeIntent
}
