package rollup

import (
	"fmt"
	"strings"

	"github.com/recall-mem/recall"
)

// Lengths of values quoted in summaries, in runes.
const (
	leadRunes  = 240
	otherRunes = 80
)

// summaryText says what a group's entries said and what changed. vals is
// the ordered tally; distinct counts the values before truncation.
//
//	keyed:   "editor (preference): uses Helix (said 2 times; changed from "uses Vim", said 5 times)"
//	unkeyed: "command: go test ./... (6×); git status (4×); +3 more"
func summaryText(typ, key string, vals []recall.RollupValue, distinct int) string {
	if key != "" {
		lead := vals[0]
		var b strings.Builder
		fmt.Fprintf(&b, "%s (%s): %s (said %s", key, typ, clip(lead.Text, leadRunes), times(lead.Count))
		if len(vals) > 1 {
			prev := vals[1]
			fmt.Fprintf(&b, "; changed from %q, said %s", clip(prev.Text, otherRunes), times(prev.Count))
		}
		if distinct > 2 {
			fmt.Fprintf(&b, "; %d other values before", distinct-2)
		}
		b.WriteString(")")
		return b.String()
	}
	if len(vals) == 1 {
		return fmt.Sprintf("%s: %s (said %s)", typ, clip(vals[0].Text, leadRunes), times(vals[0].Count))
	}
	parts := make([]string, 0, 5)
	for i, v := range vals {
		if i == 5 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d×)", clip(v.Text, otherRunes), v.Count))
	}
	s := typ + ": " + strings.Join(parts, "; ")
	if distinct > len(parts) {
		s += fmt.Sprintf("; +%d more", distinct-len(parts))
	}
	return s
}

func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// clip makes s one line of at most n runes.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
