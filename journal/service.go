package journal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// Upkeep is the housekeeping a session start runs before anything else:
// the opportunistic retention sweep and rollups (the engine provides it).
// It returns how many observations it removed. It is not recall.Sweeper,
// which applies a retention policy to a store.
type Upkeep interface {
	Upkeep(ctx context.Context, now time.Time) (int, error)
}

// UpkeepFunc adapts a function to Upkeep.
type UpkeepFunc func(ctx context.Context, now time.Time) (int, error)

// Upkeep calls f.
func (f UpkeepFunc) Upkeep(ctx context.Context, now time.Time) (int, error) { return f(ctx, now) }

// Checker verifies the store quickly, cheap enough for every session start.
type Checker interface {
	QuickCheck(ctx context.Context) error
}

// Service is the session lifecycle: it wraps a session store, keeps the
// markdown views current and assembles the bootstrap context.
type Service struct {
	Store    recall.SessionStore
	Memories recall.MemoryService
	// Dir is the memory/ directory that holds the views.
	Dir string
	// Context assembles the bootstrap context within Budget tokens (the
	// pack package's builder, with Findings and RecentSessions among its
	// sections); without it the context lists the heartbeat's findings.
	Context recall.ContextBuilder
	Budget  int
	// Upkeep, when set, runs the opportunistic sweep and rollups on start.
	Upkeep Upkeep
	// Checker, when set, runs a quick integrity check on start.
	Checker Checker
	Now     func() time.Time

	findings []string // the current heartbeat's problems, for Findings
	// What the views were written from, read after the start was
	// recorded: the bootstrap context's recent sessions and pinned core
	// come from it rather than from a third read of each.
	snapshot *snapshot
}

// snapshot is the sessions (newest first: all of them, or with a store
// that has FindViewSessions those it returns, whose first ones are the
// newest of all) and pinned memories a session start read after
// recording the start.
type snapshot struct {
	sessions []*recall.Session
	pins     []*recall.Memory
}

var _ recall.SessionService = (*Service)(nil)

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now().UTC()
	}
	return s.Now().UTC()
}

// StartSession runs the heartbeat: sweep, record and evict, check, update
// the views and build the bootstrap context. Housekeeping failures become
// problems in the report, never errors: a session must always start.
func (s *Service) StartSession(ctx context.Context, in *recall.Session) (*recall.SessionStartReport, error) {
	var problems []string
	swept := 0
	if s.Upkeep != nil {
		n, err := s.Upkeep.Upkeep(ctx, s.now())
		if err != nil {
			problems = append(problems, fmt.Sprintf("Retention sweep failed: %v.", err))
		}
		swept = n
	}
	// Views are compared with the store before the heartbeat changes it:
	// a difference means someone edited a managed file (seed 001's drift).
	if drift, err := s.Drift(ctx); err == nil {
		for _, path := range drift {
			problems = append(problems, fmt.Sprintf("%s was changed outside recall; it is rewritten from the store (capture sessions with `recall session end`).", path))
		}
	}
	rep, err := s.Store.StartSession(ctx, in)
	if err != nil {
		return nil, err
	}
	rep.Swept = swept
	rep.Problems = append(problems, rep.Problems...)
	if s.Checker != nil {
		if err := s.Checker.QuickCheck(ctx); err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("Store integrity: %v. Run `recall doctor`.", err))
		}
	}
	s.snapshot = nil
	sessions, pins, err := s.load(ctx, rep.Evicted)
	if err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("Cannot read sessions: %v.", err))
	} else {
		s.snapshot = &snapshot{sessions, pins}
		if err := s.archive(sessions, rep.Evicted); err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("Cannot archive evicted sessions: %v.", err))
		} else if err := s.writeViews(sessions, pins); err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("Cannot write %s: %v.", s.Dir, err))
		}
	}
	rep.Context = s.bootstrap(ctx, rep)
	s.snapshot = nil // later contexts read the store again
	return rep, nil
}

// EndSession captures the session and refreshes RECENT.md and PINNED.md.
func (s *Service) EndSession(ctx context.Context, end recall.SessionEnd) (*recall.Session, error) {
	out, err := s.Store.EndSession(ctx, end)
	if err != nil {
		return nil, err
	}
	if err := s.Refresh(ctx); err != nil {
		return out, fmt.Errorf("session %s was saved but the views were not updated: %w", out.ID, err)
	}
	return out, nil
}

// FindSessions lists sessions newest first.
func (s *Service) FindSessions(ctx context.Context, limit int) ([]*recall.Session, error) {
	return s.Store.FindSessions(ctx, limit)
}

// Refresh rewrites RECENT.md and PINNED.md from the store.
func (s *Service) Refresh(ctx context.Context) error {
	sessions, pins, err := s.load(ctx, nil)
	if err != nil {
		return err
	}
	return s.writeViews(sessions, pins)
}

// Drift lists the views whose files differ from what the store renders:
// someone edited a managed file, or a write was lost.
func (s *Service) Drift(ctx context.Context) ([]string, error) {
	sessions, pins, err := s.load(ctx, nil)
	if err != nil {
		return nil, err
	}
	var out []string
	for name, want := range s.render(sessions, pins) {
		got, err := os.ReadFile(filepath.Join(s.Dir, name))
		if os.IsNotExist(err) && !strings.Contains(want, "\n## ") {
			continue // an empty view need not exist
		}
		if err != nil || string(got) != want {
			out = append(out, filepath.Join(s.Dir, name))
		}
	}
	return out, nil
}

// viewSessionsFinder is a session store that can read only the sessions
// the views and the context use (sqlite's FindViewSessions).
type viewSessionsFinder interface {
	FindViewSessions(ctx context.Context, newest int, also []string) ([]*recall.Session, error)
}

// load reads what the views are rendered from: the sessions, newest first
// (with a store that can say which, only those the views, the context's
// recent sessions and the archive of evicted use), and the pins.
func (s *Service) load(ctx context.Context, evicted []string) ([]*recall.Session, []*recall.Memory, error) {
	var sessions []*recall.Session
	var err error
	if vs, ok := s.Store.(viewSessionsFinder); ok {
		sessions, err = vs.FindViewSessions(ctx, recentSessionsRead, evicted)
	} else {
		sessions, err = s.Store.FindSessions(ctx, 0)
	}
	if err != nil {
		return nil, nil, err
	}
	var pins []*recall.Memory
	if s.Memories != nil {
		yes := true
		if pins, _, err = s.Memories.FindMemories(ctx, recall.MemoryFilter{Pinned: &yes}); err != nil {
			return nil, nil, err
		}
	}
	return sessions, pins, nil
}

func (s *Service) render(sessions []*recall.Session, pins []*recall.Memory) map[string]string {
	var hot []*recall.Session
	for _, x := range sessions {
		if x.State != "cold" {
			hot = append(hot, x)
		}
	}
	return map[string]string{RecentFile: RenderRecent(hot), PinnedFile: RenderPinned(pins)}
}

func (s *Service) writeViews(sessions []*recall.Session, pins []*recall.Memory) error {
	for name, text := range s.render(sessions, pins) {
		if err := writeIfChanged(filepath.Join(s.Dir, name), text); err != nil {
			return err
		}
	}
	return nil
}

// archive moves evicted sessions to cold storage: the full block into
// archive/YYYY-MM.md and one line into SUMMARY.md, each at most once.
func (s *Service) archive(sessions []*recall.Session, evicted []string) error {
	byID := map[string]*recall.Session{}
	for _, x := range sessions {
		byID[x.ID] = x
	}
	for _, id := range evicted {
		x := byID[id]
		if x == nil {
			continue
		}
		path := ArchivePath(s.Dir, x)
		head := "# Archive: " + x.StartedAt.UTC().Format("January 2006") + "\n"
		if _, err := appendUnique(path, head, sessionHeader(x)+"\n", "\n"+sessionBlock(x)); err != nil {
			return err
		}
		head = "# Session summaries\n\n<!-- Append-only: one line per session moved to the archive. -->\n\n"
		if _, err := appendUnique(filepath.Join(s.Dir, SummaryFile), head, "("+x.ID+")", SummaryLine(x)+"\n"); err != nil {
			return err
		}
	}
	return nil
}
