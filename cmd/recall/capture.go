package main

import (
	"context"
	"path/filepath"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/journal"
	"github.com/recall-mem/recall/pack"
)

// memoryDir is where the session views live: memory/ at the project root
// for a project store (beside .recall/), else memory/ inside the store.
func (a *app) memoryDir() string {
	if a.store.Kind == "project" {
		return filepath.Join(filepath.Dir(a.store.Dir), "memory")
	}
	return filepath.Join(a.store.Dir, "memory")
}

// sessionStore is the storage half of sessions, configured from [session].
func (a *app) sessionStore() recall.SessionStore {
	return a.st.Sessions(recall.SessionOptions{
		HotSessions: a.cfg.Session.HotSessions,
		StaleAfter:  time.Duration(a.cfg.Session.StaleDays) * 24 * time.Hour,
	})
}

// sessions is the session lifecycle over the open store.
func (a *app) sessions() *journal.Service {
	j := &journal.Service{
		Store:    a.sessionStore(),
		Memories: a.mem,
		Dir:      a.memoryDir(),
		Budget:   a.cfg.Hook.ContextTokens,
		Sweeper:  a.heartbeatUpkeep(),
		Checker:  a.st.Upkeep(),
		Now:      a.now,
	}
	j.Context = a.sessionContextBuilder(j)
	return j
}

// sessionContextBuilder assembles the bootstrap context of a session: the
// heartbeat's findings first, then the sections of `recall context`
// (pinned core, working set, recent sessions, and whatever other areas add
// there), all within one budget.
func (a *app) sessionContextBuilder(j *journal.Service) recall.ContextBuilder {
	heartbeat := pack.Section{Name: "heartbeat", Title: "recall heartbeat", Fetch: j.Findings}
	sections := append([]pack.Section{heartbeat}, a.contextSections()...)
	return bytesFirst{
		cheap: &pack.Builder{Sections: sections, Tokens: byteCounter{}},
		exact: pack.NewBuilder(sections...),
	}
}

// byteCounter counts bytes: an upper bound on BPE tokens (every token
// stands for at least one byte) that costs nothing to compute.
type byteCounter struct{}

func (byteCounter) Count(text string) int { return len(text) }

// bytesFirst packs with byte counts first and with the real tokenizer only
// when something did not fit. Loading the o200k vocabulary costs a hook
// process 20-40 ms of CPU; a session's bootstrap context usually fits its
// budget even counted in bytes, and then it fits in tokens too.
type bytesFirst struct{ cheap, exact *pack.Builder }

func (b bytesFirst) BuildContext(ctx context.Context, req recall.ContextRequest) (*recall.ContextPack, error) {
	p, err := b.cheap.BuildContext(ctx, req)
	if err != nil || p.Dropped == 0 {
		return p, err
	}
	return b.exact.BuildContext(ctx, req)
}

// heartbeatUpkeep is the housekeeping a session start runs before the
// heartbeat: closed time buckets are rolled up (bounded by [rollup]
// session_budget_ms) and, with [retention] enabled, observations past their
// type's retention are swept (seed 003's opportunistic trigger: at least
// 100 observations older than a day). Neither ever fails the session.
func (a *app) heartbeatUpkeep() journal.Sweeper {
	return journal.SweepFunc(func(ctx context.Context, _ time.Time) (int, error) {
		a.opportunisticRollup(ctx, 0)
		return a.opportunisticSweep(ctx, a.stderr), nil
	})
}
