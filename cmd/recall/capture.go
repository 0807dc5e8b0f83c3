package main

import (
	"path/filepath"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/journal"
	"github.com/recall-mem/recall/redact"
	"github.com/recall-mem/recall/sqlite"
)

// newRedactor builds the redactor from [redact]; redaction is on unless
// enabled = false. A nil interface (not a typed nil) means off.
func newRedactor(cfg RedactConfig) (recall.Redactor, error) {
	if cfg.Enabled != nil && !*cfg.Enabled {
		return nil, nil
	}
	r, err := redact.New(redact.Config{Patterns: cfg.Patterns, Allow: cfg.AllowList})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// memoryDir is where the session views live: memory/ at the project root
// for a project store (beside .recall/), else memory/ inside the store.
func (a *app) memoryDir() string {
	if a.store.Kind == "project" {
		return filepath.Join(filepath.Dir(a.store.Dir), "memory")
	}
	return filepath.Join(a.store.Dir, "memory")
}

// sessionStore is the storage half of sessions, configured from [session].
func (a *app) sessionStore() *sqlite.SessionService {
	s := sqlite.NewSessionService(a.db)
	s.HotSessions = a.cfg.Session.HotSessions
	s.StaleAfter = time.Duration(a.cfg.Session.StaleDays) * 24 * time.Hour
	return s
}

// sessions is the session lifecycle over the open store.
func (a *app) sessions() *journal.Service {
	return &journal.Service{
		Store:    a.sessionStore(),
		Memories: a.mem,
		Dir:      a.memoryDir(),
		Context:  a.sessionContextBuilder(),
		Budget:   a.cfg.Hook.ContextTokens,
		Sweeper:  a.retentionSweeper(),
		Checker:  a.db,
		Now:      a.now,
	}
}

// sessionContextBuilder assembles the bootstrap context of a session.
// Until the ranking package's builder is wired here (return
// a.contextBuilder()), the journal shows pinned memories and recent
// sessions within the budget.
func (a *app) sessionContextBuilder() recall.ContextBuilder { return nil }

// retentionSweeper is the opportunistic retention sweep run when a session
// starts, only with [retention] enabled = true. The forgetting package
// provides the sweep; until it is wired here, session start sweeps nothing.
func (a *app) retentionSweeper() journal.Sweeper {
	if !a.cfg.Retention.Enabled {
		return nil
	}
	return nil // wire the forgetting package's sweep here
}
