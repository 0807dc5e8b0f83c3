package engine

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hook"
)

// HookAgent is the agent the Claude Code hook records sessions for.
const HookAgent = "claude-code"

// HookCommandLine is what the installed Claude Code hooks run.
const HookCommandLine = "recall hook claude"

// RecordHook records what p says and returns what the hook prints (the
// SessionStart context), if anything.
func (e *Engine) RecordHook(ctx context.Context, p *hook.Payload) ([]byte, error) {
	opt := hook.Options{MaxOutputBytes: e.Config.Hook.MaxOutputBytes, Now: e.Now(), Redactor: e.Redactor}
	obs := hook.Observations(p, opt)
	if p.Event == hook.EventStop {
		turn, err := hook.LastTurn(p.TranscriptPath)
		if err != nil {
			return nil, err
		}
		obs = hook.TurnObservations(p, turn, opt)
	}
	session := &recall.Session{ID: p.SessionID, Agent: HookAgent}
	if len(obs) > 0 {
		session.Project = obs[0].Project
	}
	switch p.Event {
	case hook.EventUserPromptSubmit, hook.EventSessionEnd, hook.EventPreCompact:
		// Make sure the session exists even when SessionStart was missed
		// (hooks installed mid-session).
		if err := e.SessionStore().EnsureSession(ctx, session); err != nil {
			return nil, err
		}
	}
	if err := e.Observe(ctx, obs); err != nil {
		return nil, err
	}
	switch p.Event {
	case hook.EventSessionStart:
		rep, err := e.StartSession(ctx, session)
		if err != nil {
			return nil, err
		}
		return hook.SessionStartOutput(rep.Context)
	case hook.EventSessionEnd:
		_, err := e.EndSession(ctx, recall.SessionEnd{ID: p.SessionID})
		return nil, err
	}
	return nil, nil
}

// OpenSession returns the newest session that has not ended.
func (e *Engine) OpenSession(ctx context.Context) (string, error) {
	all, err := e.SessionStore().FindSessions(ctx, 50)
	if err != nil {
		return "", err
	}
	for _, s := range all {
		if s.EndedAt == nil {
			return s.ID, nil
		}
	}
	return "", recall.Errorf(recall.ENOTFOUND, "No open session: start one with `recall session start` or name it with --session.")
}

// HookBudget returns the directory of the store the flags select, where
// hooks log ("" when none resolves), and how long a hook may take: that
// store's [hook] timeout_ms, else def. It is read before the clock starts
// and opens nothing; a broken config is reported by the open that follows.
func (e *Engine) HookBudget(def time.Duration) (dir string, budget time.Duration) {
	budget = def
	loc, err := ResolveStore(e.StoreFlag, e.GlobalFlag)
	if err != nil {
		return "", budget
	}
	if cfg, err := LoadStoreConfig(loc.Dir); err == nil && cfg.Hook.TimeoutMillis > 0 {
		budget = time.Duration(cfg.Hook.TimeoutMillis) * time.Millisecond
	}
	return loc.Dir, budget
}
