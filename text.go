package recall

import (
	"strings"
)

// OneLine collapses runs of white space in s to single spaces and cuts the
// result to at most n runes, ending a cut line with "…": for table cells
// and compact results.
func OneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

var h1RE = lazyRegexp(`(?m)^#[ \t]+(.+?)[ \t]*#*[ \t]*$`)

// FirstH1 returns the text of the first level-one ATX heading, or "".
func FirstH1(content string) string {
	m := h1RE().FindStringSubmatch(content)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}

// WithoutTitle drops a leading level-one heading that repeats title from
// text (a document's "# Title" line, or its one-line form), so that a
// snippet shown after its title does not say it twice.
func WithoutTitle(text, title string) string {
	title = strings.TrimSpace(title)
	rest := strings.TrimLeft(text, " \t\r\n")
	if title == "" || !strings.HasPrefix(rest, "#") {
		return text
	}
	line, after, _ := strings.Cut(rest, "\n")
	if m := h1RE().FindStringSubmatch(line); m != nil && strings.EqualFold(strings.TrimSpace(m[1]), title) {
		return strings.TrimLeft(after, " \t\r\n")
	}
	// A flattened snippet: "# Title body…" on one line.
	if head := "# " + title; len(rest) >= len(head) && strings.EqualFold(rest[:len(head)], head) &&
		(len(rest) == len(head) || rest[len(head)] == ' ') {
		return strings.TrimLeft(rest[len(head):], " ")
	}
	return text
}
