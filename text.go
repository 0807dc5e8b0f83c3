package recall

import (
	"regexp"
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

var h1RE = regexp.MustCompile(`(?m)^#[ \t]+(.+?)[ \t]*#*[ \t]*$`)

// FirstH1 returns the text of the first level-one ATX heading, or "".
func FirstH1(content string) string {
	m := h1RE.FindStringSubmatch(content)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}
