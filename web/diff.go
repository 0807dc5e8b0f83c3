package web

import (
	"fmt"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/rogpeppe/go-internal/diff"
)

// diffLine is one line of a unified diff with how to show it.
type diffLine struct {
	Kind string // add, del, hunk or same
	Text string
}

// versionDiff compares two versions as their main fields followed by their
// content, so that a retag or a tier move shows as well as an edit.
func versionDiff(a, b *recall.MemoryVersion) []diffLine {
	out := diff.Diff(fmt.Sprintf("version %d", a.Version), diffText(a), fmt.Sprintf("version %d", b.Version), diffText(b))
	var lines []diffLine
	for l := range strings.SplitSeq(strings.TrimSuffix(string(out), "\n"), "\n") {
		kind := "same"
		switch {
		case strings.HasPrefix(l, "diff "), strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			continue // the file names repeat the version numbers shown above
		case strings.HasPrefix(l, "@@"):
			kind = "hunk"
		case strings.HasPrefix(l, "+"):
			kind = "add"
		case strings.HasPrefix(l, "-"):
			kind = "del"
		}
		if l != "" {
			lines = append(lines, diffLine{kind, l})
		}
	}
	return lines
}

func diffText(v *recall.MemoryVersion) []byte {
	m := v.Memory
	if m == nil {
		return []byte("(deleted)\n")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "op: %s\ntitle: %s\ntype: %s\ntags: %s\ntier: %s\npinned: %t\nstatus: %s\n\n",
		v.Op, m.Title, m.Type, strings.Join(m.Tags, ", "), m.Tier, m.Pinned, m.Status)
	b.WriteString(m.Content)
	if !strings.HasSuffix(m.Content, "\n") {
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
