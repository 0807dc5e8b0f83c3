package redact

import (
	"regexp"
	"sort"
	"strings"
)

// rule finds one kind of secret. group is the submatch that holds the
// secret (0 for the whole match); keep, when set, vetoes a candidate that
// is a look-alike (a placeholder, a hash, a reference to a variable).
// name, when set, is the submatch holding an assignment's name: a name
// matching dataName (hash, id, content…) vetoes the candidate too.
//
// The rest keeps redaction fast, since Go's regular expressions cost
// about a microsecond per byte when they cannot skip ahead:
//   - hints: the expression runs only when one of them occurs (in the
//     lower-case text when fold is set); with anchor set every match starts
//     with a hint, and the expression runs anchored at each occurrence
//     only, which fails within a few bytes where there is no secret;
//   - runs: the expression runs only around runs of at least 20 value
//     characters (what the high-entropy rule looks at);
//   - bounded: no letter or digit may touch the match on either side,
//     which is \b without its cost.
type rule struct {
	kind    string
	re      func() *regexp.Regexp
	group   int
	keep    func(secret string) bool
	name    int
	hints   []string
	fold    bool
	anchor  bool
	runs    bool
	bounded bool

	anchored func() *regexp.Regexp // re anchored at its start, for anchor
}

// anchorLimit bounds how far an anchored match may reach.
const anchorLimit = 4096

// find returns the submatch indexes of the rule's matches in text.
func (ru *rule) find(text, lower string) [][]int {
	if ru.anchor {
		return ru.findAnchored(text, lower)
	}
	var spans [][2]int // windows of text to search
	switch {
	case ru.runs:
		spans = valueRuns(text)
	case len(ru.hints) > 0:
		in := text
		if ru.fold {
			in = lower
		}
		if !containsAny(in, ru.hints) {
			return nil
		}
		spans = [][2]int{{0, len(text)}}
	default:
		spans = [][2]int{{0, len(text)}}
	}
	var out [][]int
	for _, w := range spans {
		for _, m := range ru.re().FindAllStringSubmatchIndex(text[w[0]:w[1]], -1) {
			for i := range m {
				if m[i] >= 0 {
					m[i] += w[0]
				}
			}
			if ru.bounded && touches(text, m[0], m[1]) {
				continue
			}
			out = append(out, m)
		}
	}
	return out
}

// findAnchored tries the anchored expression at every hint occurrence.
func (ru *rule) findAnchored(text, lower string) [][]int {
	in := text
	if ru.fold {
		in = lower
	}
	var starts []int
	for _, h := range ru.hints {
		for i := 0; ; {
			j := strings.Index(in[i:], h)
			if j < 0 {
				break
			}
			starts = append(starts, i+j)
			i += j + len(h)
		}
	}
	sort.Ints(starts)
	var out [][]int
	next := 0
	for _, p := range starts {
		if p < next {
			continue
		}
		m := ru.anchored().FindStringSubmatchIndex(text[p:min(p+anchorLimit, len(text))])
		if m == nil {
			continue
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += p
			}
		}
		if ru.bounded && touches(text, m[0], m[1]) {
			continue
		}
		out = append(out, m)
		next = m[1]
	}
	return out
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// valueRuns returns windows around every run of 20 or more characters
// that a high-entropy value may hold, reaching back over the assignment
// before it (operator, quotes, spaces and the name, up to 80 bytes).
func valueRuns(text string) [][2]int {
	var starts []int
	var ends []int
	for i := 0; i < len(text); {
		if !isValueChar(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isValueChar(text[j]) {
			j++
		}
		if j-i >= 20 {
			starts, ends = append(starts, i), append(ends, j)
		}
		i = j
	}
	k := 0
	return merge(starts, func(p int) (int, int) {
		lo := max(p-80, 0)
		for lo > 0 && lo > p-160 && isValueChar(text[lo-1]) { // do not cut a name in two
			lo--
		}
		e := ends[k]
		k++
		return lo, e
	})
}

// merge turns sorted positions into windows with span and joins the ones
// that overlap.
func merge(starts []int, span func(int) (int, int)) [][2]int {
	var out [][2]int
	for _, p := range starts {
		lo, hi := span(p)
		if n := len(out); n > 0 && lo <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], hi)
			continue
		}
		out = append(out, [2]int{lo, hi})
	}
	return out
}

func isValueChar(c byte) bool {
	return isAlnum(c) || c == '+' || c == '/' || c == '_' || c == '=' || c == '-'
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// touches reports whether a letter or digit sits right before start or
// right after end.
func touches(text string, start, end int) bool {
	return start > 0 && isAlnum(text[start-1]) || end < len(text) && isAlnum(text[end])
}

// asciiLower lower-cases ASCII letters only, so that every byte offset in
// the result is the same offset in s (strings.ToLower may change lengths).
// A text without upper-case letters is returned as it is, and any other
// is copied once: a conversion to bytes and back copied each text twice,
// a tenth of an import's allocations.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && !isUpper(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for ; i < len(s); i++ {
		if isUpper(s[i]) {
			b.WriteString(s[last:i])
			b.WriteByte(s[i] + 'a' - 'A')
			last = i + 1
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
