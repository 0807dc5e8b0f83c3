package web

import (
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/lazyre"
	"github.com/recall-mem/recall/maintain"
)

var funcs = template.FuncMap{
	"markdown": renderMarkdown,
	"redacted": showRedactions,
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04")
	},
	"whenp": func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04")
	},
	"score":   func(f float64) string { return fmt.Sprintf("%.4f", f) },
	"join":    strings.Join,
	"sel":     func(a, b string) bool { return a == b },
	"pct":     func(a, b int) int { return percent(a, b) },
	"sub":     func(a, b int) int { return a - b },
	"add":     func(a, b int) int { return a + b },
	"excerpt": excerpt,
	"pair": func(id, title string, list []recall.MaintainCandidate, csrf, actions string) candidateList {
		return candidateList{id, title, list, csrf, strings.Fields(actions)}
	},
	"findingActions": findingActions,
}

// candidateList is one table of the maintenance page, with the actions
// each row offers (those of the CLI's prompt for that kind of entry).
type candidateList struct {
	ID, Title string
	List      []recall.MaintainCandidate
	CSRF      string
	Actions   []string
}

// entryActions are the actions a finding offers for its entry.
type entryActions struct {
	ID      string
	Actions []string
}

// findingActions is what `recall maintain` asks about a finding: a stale
// entry or a changed anchor is verified or archived (updating it is the
// edit page), an open loop kept, snoozed or archived. Nil for findings
// the CLI only reports.
func findingActions(f recall.MaintainFinding) *entryActions {
	if len(f.IDs) == 0 {
		return nil
	}
	switch f.Kind {
	case recall.FindingStale, recall.FindingAnchor:
		return &entryActions{f.IDs[0], []string{maintain.ActVerify, maintain.ActArchive}}
	case recall.FindingOpenLoop:
		return &entryActions{f.IDs[0], []string{maintain.ActKeep, maintain.ActSnooze, maintain.ActArchive}}
	}
	return nil
}

// redactionMark is what the redactor leaves in place of a secret.
var redactionMark = lazyre.New(`\[REDACTED:[a-z0-9_\-]+\]`)

// showRedactions escapes s and marks each [REDACTED:kind] so a reader sees
// at a glance what was removed.
func showRedactions(s string) template.HTML {
	var b strings.Builder
	last := 0
	for _, m := range redactionMark().FindAllStringIndex(s, -1) {
		b.WriteString(template.HTMLEscapeString(s[last:m[0]]))
		b.WriteString(`<mark class="redacted">`)
		b.WriteString(template.HTMLEscapeString(s[m[0]:m[1]]))
		b.WriteString(`</mark>`)
		last = m[1]
	}
	b.WriteString(template.HTMLEscapeString(s[last:]))
	return template.HTML(b.String())
}

// percent is a of b in whole percent, capped at 100 for a bar's width.
func percent(a, b int) int {
	if b <= 0 {
		return 0
	}
	return min(100, a*100/b)
}

// excerpt shortens s to about n runes at a word boundary.
func excerpt(s string, n int) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) <= n {
		return string(r)
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return cut + "…"
}
