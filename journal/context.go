package journal

import (
	"context"
	"fmt"
	"strings"

	"github.com/recall-mem/recall"
)

// bytesPerToken estimates tokens for the fallback context only; the
// context builder counts real tokens.
const bytesPerToken = 4

// bootstrap returns the context shown to the agent when a session starts:
// the context builder's pack when one is set, else pinned memories and
// the hot sessions, newest first. Problems found by the heartbeat come
// first so the agent can act on them.
func (s *Service) bootstrap(ctx context.Context, sessions []*recall.Session, pins []*recall.Memory, rep *recall.SessionStartReport) string {
	var b strings.Builder
	if len(rep.Problems) > 0 {
		b.WriteString("## recall heartbeat\n\n")
		for _, p := range rep.Problems {
			b.WriteString("- " + p + "\n")
		}
		b.WriteString("\n")
	}
	budget := s.Budget
	if budget <= 0 {
		budget = 2000
	}
	if s.Context != nil {
		req := recall.ContextRequest{Budget: max(budget-len(b.String())/bytesPerToken, 1), Now: s.now()}
		if rep.Session != nil && rep.Session.Project != "" {
			p := rep.Session.Project
			req.Filter.Project = &p
		}
		if pack, err := s.Context.BuildContext(ctx, req); err == nil {
			return b.String() + pack.Text
		} else {
			b.WriteString(fmt.Sprintf("- Context builder failed: %v.\n\n", err))
		}
	}
	if len(pins) > 0 {
		b.WriteString("## Pinned (core memory)\n\n")
		for _, m := range pins {
			b.WriteString("- " + oneLine(m.Title+": "+m.Content) + "\n")
		}
		b.WriteString("\n")
	}
	wrote := false
	for _, x := range sessions {
		if x.State == "cold" || x.Summary == "" || rep.Session != nil && x.ID == rep.Session.ID {
			continue
		}
		if !wrote {
			b.WriteString("## Recent sessions\n\n")
			wrote = true
		}
		line := fmt.Sprintf("- %s: %s", x.StartedAt.UTC().Format(dateLayout), oneLine(x.Summary))
		if x.Learned != "" {
			line += " Learned: " + oneLine(x.Learned)
		}
		b.WriteString(line + "\n")
	}
	return cut(b.String(), budget*bytesPerToken)
}

// cut keeps whole lines of text within limit bytes.
func cut(text string, limit int) string {
	if len(text) <= limit {
		return text
	}
	i := strings.LastIndexByte(text[:limit], '\n')
	if i < 0 {
		return ""
	}
	return text[:i+1]
}
