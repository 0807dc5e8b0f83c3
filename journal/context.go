package journal

import (
	"context"
	"fmt"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/pack"
)

// bootstrap returns the context shown to the agent when a session starts:
// the context builder's pack, whose sections include the heartbeat's
// findings when Findings is one of them. Without a builder the findings
// are listed as they are.
func (s *Service) bootstrap(ctx context.Context, rep *recall.SessionStartReport) string {
	s.findings = rep.Problems
	if s.Context == nil {
		var b strings.Builder
		for _, p := range rep.Problems {
			b.WriteString("- " + oneLine(p) + "\n")
		}
		return b.String()
	}
	budget := s.Budget
	if budget <= 0 {
		budget = 2000
	}
	// Core memory belongs to every project, so the request is not narrowed
	// to the session's project.
	pack, err := s.Context.BuildContext(ctx, recall.ContextRequest{Budget: budget, Now: s.now()})
	if err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("Cannot assemble the context: %v.", err))
		return ""
	}
	return pack.Text
}

// Findings is a context source (the Fetch of a pack section, best placed
// first): the problems the heartbeat of the starting session found, so
// that the agent can act on them.
func (s *Service) Findings(context.Context, recall.ContextRequest) ([]recall.ContextItem, error) {
	items := make([]recall.ContextItem, 0, len(s.findings))
	for _, p := range s.findings {
		items = append(items, recall.ContextItem{Kind: "finding", Text: oneLine(p)})
	}
	return items, nil
}

// RecentSessions returns a context source (the Fetch of a pack section)
// listing the hot sessions that have a summary, newest first, one item
// each: what was done and what was learned.
func RecentSessions(store recall.SessionService) func(ctx context.Context, req recall.ContextRequest) ([]recall.ContextItem, error) {
	return func(ctx context.Context, _ recall.ContextRequest) ([]recall.ContextItem, error) {
		all, err := store.FindSessions(ctx, recentSessionsRead)
		if err != nil {
			return nil, err
		}
		return recentItems(all), nil
	}
}

// recentSessionsRead is how many of the newest sessions RecentSessions
// looks at.
const recentSessionsRead = 50

// RecentSessions is the context source RecentSessions(s.Store) that, in a
// session start, takes the sessions from what the views were written from
// (the same rows: the newest first, read after the start; a store's
// FindViewSessions returns the newest recentSessionsRead of all first)
// instead of reading them once more.
func (s *Service) RecentSessions(ctx context.Context, req recall.ContextRequest) ([]recall.ContextItem, error) {
	if s.snapshot == nil {
		return RecentSessions(s.Store)(ctx, req)
	}
	all := s.snapshot.sessions
	return recentItems(all[:min(len(all), recentSessionsRead)]), nil
}

// PinnedCore returns the pinned core section's Fetch (read is
// pack.Pinned's) that, in a session start, takes the pins from what
// PINNED.md was written from (the same query but for the section's limit:
// every pinned memory, newest change first) instead of reading them once
// more. Outside a session start, or for a context narrowed to a project or
// collection, it reads.
func (s *Service) PinnedCore(read func(ctx context.Context, req recall.ContextRequest) ([]recall.ContextItem, error)) func(ctx context.Context, req recall.ContextRequest) ([]recall.ContextItem, error) {
	return func(ctx context.Context, req recall.ContextRequest) ([]recall.ContextItem, error) {
		if s.snapshot == nil || s.Memories == nil || req.Filter.Project != nil || req.Filter.Collection != nil {
			return read(ctx, req)
		}
		pins := s.snapshot.pins[:min(len(s.snapshot.pins), pack.MemorySectionLimit)]
		items := make([]recall.ContextItem, 0, len(pins))
		for _, m := range pins {
			items = append(items, pack.MemoryItem(m, ""))
		}
		return items, nil
	}
}

func recentItems(all []*recall.Session) []recall.ContextItem {
	var items []recall.ContextItem
	for _, x := range all {
		if x.State == "cold" || x.Summary == "" {
			continue
		}
		items = append(items, recall.ContextItem{ID: x.ID, Kind: "session", Title: x.ID, Text: sessionLine(x)})
	}
	return items
}

// sessionLine is a session in one line of context.
func sessionLine(x *recall.Session) string {
	line := x.StartedAt.UTC().Format(dateLayout) + ": " + oneLine(x.Summary)
	if x.Learned != "" {
		line += " Learned: " + oneLine(x.Learned)
	}
	return line
}
