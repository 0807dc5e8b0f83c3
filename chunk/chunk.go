// Package chunk splits long markdown memories into passages at ATX
// headings and paragraphs, so that the passage that answers a query can be
// embedded, found and shown on its own.
//
// It is a careful line scanner rather than a full CommonMark parser: it
// only needs headings, blank lines and code fences, and it must report
// exact byte offsets into the original text, which a line scanner gives
// for free.
package chunk

import (
	"strings"
	"unicode/utf8"

	"github.com/recall-mem/recall"
)

// DefaultMaxBytes is the largest passage: about 250 tokens, small enough
// to be specific, large enough to keep a paragraph and its heading
// together.
const DefaultMaxBytes = 1200

// Splitter is a recall.Chunker over markdown.
type Splitter struct {
	// MaxBytes caps a passage; content up to this size is one chunk.
	// 0 means DefaultMaxBytes.
	MaxBytes int
}

var _ recall.Chunker = Splitter{}

func (s Splitter) max() int {
	if s.MaxBytes > 0 {
		return s.MaxBytes
	}
	return DefaultMaxBytes
}

// line is one line of the content: [start, end) without its newline.
type line struct {
	start, end int
	heading    int  // ATX level 1-6, 0 for other lines
	blank      bool // only white space
}

// section is the text under one heading (or before the first one).
type section struct {
	start, end int
	path       string
	lines      []line
}

// Chunk splits content into passages that cover all its non-blank text
// in order. Content no longer than MaxBytes is one chunk.
func (s Splitter) Chunk(content string) []recall.Chunk {
	if len(content) <= s.max() {
		return []recall.Chunk{{Index: 0, Start: 0, End: len(content)}}
	}
	var out []recall.Chunk
	for _, sec := range sections(content) {
		for _, p := range s.split(content, sec) {
			p.Heading = sec.path
			p.Index = len(out)
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return []recall.Chunk{{Index: 0, Start: 0, End: len(content)}}
	}
	return out
}

// sections cuts content at ATX headings outside code fences.
func sections(content string) []section {
	var out []section
	var stack [7]string
	cur := section{}
	fence := ""
	for _, l := range lines(content) {
		text := content[l.start:l.end]
		if fence != "" {
			if isFence(text) == fence {
				fence = ""
			}
			cur.lines = append(cur.lines, l)
			continue
		}
		if f := isFence(text); f != "" {
			fence = f
		} else if lvl, title := atxHeading(text); lvl > 0 {
			if len(cur.lines) > 0 {
				cur.end = cur.lines[len(cur.lines)-1].end
				out = append(out, cur)
			}
			stack[lvl] = title
			for i := lvl + 1; i < len(stack); i++ {
				stack[i] = ""
			}
			var parts []string
			for _, t := range stack[1 : lvl+1] {
				if t != "" {
					parts = append(parts, t)
				}
			}
			cur = section{start: l.start, path: strings.Join(parts, " > ")}
			l.heading = lvl
		}
		cur.lines = append(cur.lines, l)
	}
	if len(cur.lines) > 0 {
		cur.end = cur.lines[len(cur.lines)-1].end
		out = append(out, cur)
	}
	return out
}

func lines(content string) []line {
	var out []line
	for start := 0; start < len(content); {
		end := strings.IndexByte(content[start:], '\n')
		next := 0
		if end < 0 {
			end, next = len(content), len(content)
		} else {
			end, next = start+end, start+end+1
		}
		out = append(out, line{start: start, end: end, blank: strings.TrimSpace(content[start:end]) == ""})
		start = next
	}
	return out
}

// isFence returns the fence marker (``` or ~~~) a line opens or closes.
func isFence(text string) string {
	t := strings.TrimLeft(text, " ")
	if len(text)-len(t) > 3 {
		return ""
	}
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, f) {
			return f
		}
	}
	return ""
}

// atxHeading returns the level and text of an ATX heading line, or 0.
func atxHeading(text string) (int, string) {
	t := strings.TrimLeft(text, " ")
	if len(text)-len(t) > 3 {
		return 0, ""
	}
	lvl := 0
	for lvl < len(t) && t[lvl] == '#' {
		lvl++
	}
	if lvl == 0 || lvl > 6 || (lvl < len(t) && t[lvl] != ' ' && t[lvl] != '\t') {
		return 0, ""
	}
	title := strings.TrimSpace(t[lvl:])
	title = strings.TrimSpace(strings.TrimRight(title, "#"))
	return lvl, title
}

// split packs a section's paragraphs into passages of at most max bytes;
// a paragraph that is itself too long is cut at line, then word, bounds.
func (s Splitter) split(content string, sec section) []recall.Chunk {
	var out []recall.Chunk
	start, end := -1, -1
	emit := func() {
		if start >= 0 {
			out = append(out, recall.Chunk{Start: start, End: end})
		}
		start, end = -1, -1
	}
	add := func(a, b int) {
		if start >= 0 && b-start > s.max() {
			emit()
		}
		if start < 0 {
			start = a
		}
		end = b
	}
	for _, p := range paragraphs(sec.lines) {
		if p[1]-p[0] <= s.max() {
			add(p[0], p[1])
			continue
		}
		emit()
		for _, piece := range cut(content, p[0], p[1], s.max()) {
			add(piece[0], piece[1])
		}
		emit()
	}
	emit()
	return out
}

// paragraphs groups non-blank lines separated by blank lines; a lone
// heading line joins the paragraph after it.
func paragraphs(ls []line) [][2]int {
	var out [][2]int
	cur := [2]int{-1, -1}
	headingOnly := false
	for _, l := range ls {
		if l.blank {
			if cur[0] >= 0 && !headingOnly {
				out = append(out, cur)
				cur = [2]int{-1, -1}
			}
			continue
		}
		if cur[0] < 0 {
			cur[0] = l.start
			headingOnly = l.heading > 0
		} else {
			headingOnly = false
		}
		cur[1] = l.end
	}
	if cur[0] >= 0 {
		out = append(out, cur)
	}
	return out
}

// cut splits content[a:b] into pieces of at most max bytes, preferring
// line ends, then spaces, and never splitting a UTF-8 sequence.
func cut(content string, a, b, max int) [][2]int {
	var out [][2]int
	for a < b {
		for a < b && (content[a] == ' ' || content[a] == '\n' || content[a] == '\t' || content[a] == '\r') {
			a++
		}
		if a >= b {
			break
		}
		if b-a <= max {
			out = append(out, [2]int{a, b})
			break
		}
		limit := a + max
		at := strings.LastIndexByte(content[a:limit], '\n')
		if at <= 0 {
			at = strings.LastIndexByte(content[a:limit], ' ')
		}
		if at <= 0 {
			at = max
			for at > 0 && !utf8.RuneStart(content[a+at]) {
				at--
			}
			if at == 0 {
				at = max
			}
		}
		out = append(out, [2]int{a, a + at})
		a += at
	}
	return out
}
