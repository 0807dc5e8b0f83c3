package markdown

import (
	"strings"

	"github.com/recall-mem/recall/internal/lazyre"
)

// Item is a single-line list item of a managed file: an entry when it
// carries an id, an entry still to be tagged when it does not.
type Item struct {
	Line int    // 1-based line number
	Text string // between "- " and " ^tr…" (or the end of the line)
	ID   string // "" when the line carries no id yet
}

// idTokenRE finds the id token at the end of a line: a space, "^tr" and ten
// lower-case hex digits, then only spaces or tabs.
var idTokenRE = lazyre.New(`(^|[ \t])\^(tr[0-9a-f]{10})[ \t]*$`)

// placeholders are list items that stand for "nothing here yet" and so are
// not entries (compared lower-case, after trimming).
var placeholders = map[string]bool{
	"": true, "...": true, "…": true, "-": true, "tbd": true, "todo": true,
	"none": true, "(none)": true, "none yet": true, "(none yet)": true,
	"(empty)": true, "empty": true, "n/a": true, "(n/a)": true,
}

// isPlaceholder reports whether an item's text is a placeholder: a word
// that means "nothing yet", a whole-line HTML comment, or text wrapped in
// one pair of underscores, asterisks, brackets or angle brackets such as
// "_add entries here_" or "<your note>".
func isPlaceholder(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	if placeholders[t] {
		return true
	}
	if strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->") {
		return true
	}
	for _, p := range []string{"__", "_", "**", "*", "<>", "[]"} {
		open, close := p[:len(p)/2], p[len(p)/2:]
		if len(p) == 1 {
			open, close = p, p
		}
		if len(t) > len(open)+len(close) && strings.HasPrefix(t, open) && strings.HasSuffix(t, close) &&
			!strings.Contains(t[len(open):len(t)-len(close)], close) {
			return true
		}
	}
	return false
}

// fence tracks fenced code blocks (``` or ~~~, indented at most three
// spaces); a closing fence uses the same character at least as many times.
type fence struct {
	char byte
	n    int
}

// toggle updates the fence state for one line and reports whether the line
// is part of a code block (fence lines included).
func (f *fence) toggle(line string) bool {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 || len(trimmed) < 3 || (trimmed[0] != '`' && trimmed[0] != '~') {
		return f.n > 0
	}
	c := trimmed[0]
	n := 0
	for n < len(trimmed) && trimmed[n] == c {
		n++
	}
	if n < 3 {
		return f.n > 0
	}
	rest := strings.TrimRight(trimmed[n:], " \t\r")
	switch {
	case f.n == 0:
		if c == '`' && strings.Contains(rest, "`") {
			return false // not a fence: an inline code span
		}
		f.char, f.n = c, n
	case c == f.char && n >= f.n && rest == "":
		f.n = 0
	}
	return true
}

// ParseItems returns the single-line list items of a managed file, in
// order. An item is a line starting "- " at the left margin, outside fenced
// code blocks, not a placeholder, and not followed by an indented
// continuation line (a nested list or a wrapped paragraph makes it a
// multi-line item, which is never an entry). Lines may end in LF or CRLF.
//
// A file that holds other text can mark where recall's entries are: when
// it has a line "<!-- recall:begin -->", only items between such a line
// and the next "<!-- recall:end -->" are considered.
func ParseItems(src []byte) []Item {
	lines := SplitLines(src)
	sectioned := sectionStart(lines) >= 0
	inSection := false
	var out []Item
	var f fence
	for i, raw := range lines {
		line := trimEOL(raw)
		if f.toggle(line) {
			continue
		}
		switch strings.TrimSpace(line) {
		case SectionBegin:
			inSection = true
			continue
		case SectionEnd:
			inSection = false
			continue
		}
		if sectioned && !inSection || !strings.HasPrefix(line, "- ") {
			continue
		}
		if i+1 < len(lines) && isContinuation(trimEOL(lines[i+1])) {
			continue
		}
		it, ok := parseItem(line)
		if !ok {
			continue
		}
		it.Line = i + 1
		out = append(out, it)
	}
	return out
}

// Markers of the managed section of a file that also holds other text.
const (
	SectionBegin = "<!-- recall:begin -->"
	SectionEnd   = "<!-- recall:end -->"
)

// sectionStart returns the index of the first begin marker outside code
// fences, or -1.
func sectionStart(lines []string) int {
	var f fence
	for i, raw := range lines {
		line := trimEOL(raw)
		if !f.toggle(line) && strings.TrimSpace(line) == SectionBegin {
			return i
		}
	}
	return -1
}

// sectionEnd returns the index of the end marker closing the last managed
// section, or -1 when the file has no section or the last one is open.
func sectionEnd(lines []string) int {
	var f fence
	end, open := -1, false
	for i, raw := range lines {
		line := trimEOL(raw)
		if f.toggle(line) {
			continue
		}
		switch strings.TrimSpace(line) {
		case SectionBegin:
			open, end = true, -1
		case SectionEnd:
			if open {
				open, end = false, i
			}
		}
	}
	return end
}

// parseItem splits a "- " line into text and id.
func parseItem(line string) (Item, bool) {
	body := line[2:]
	var it Item
	if loc := idTokenRE().FindStringSubmatchIndex(body); loc != nil {
		it.ID = body[loc[4]:loc[5]]
		it.Text = body[:loc[0]]
	} else {
		it.Text = body
	}
	if isPlaceholder(it.Text) {
		return Item{}, false
	}
	return it, true
}

// isContinuation reports whether a line continues the list item above it:
// indented and not blank.
func isContinuation(line string) bool {
	return (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) && strings.TrimSpace(line) != ""
}

// SplitLines splits src into lines that keep their terminators, so that
// joining them gives src back byte for byte. A final line without a
// newline is kept as it is; empty input has no lines.
func SplitLines(src []byte) []string {
	var out []string
	s := string(src)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// trimEOL drops a line's terminator (LF or CRLF).
func trimEOL(line string) string {
	line = strings.TrimSuffix(line, "\n")
	return strings.TrimSuffix(line, "\r")
}

// eol returns a line's terminator: "\r\n", "\n" or "".
func eol(line string) string {
	switch {
	case strings.HasSuffix(line, "\r\n"):
		return "\r\n"
	case strings.HasSuffix(line, "\n"):
		return "\n"
	}
	return ""
}
