package engine

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
func (e *Engine) memoryDir() string {
	if e.Location.Kind == "project" {
		return filepath.Join(filepath.Dir(e.Location.Dir), "memory")
	}
	return filepath.Join(e.Location.Dir, "memory")
}

// SessionStore is the storage half of sessions, configured from [session].
func (e *Engine) SessionStore() recall.SessionStore {
	return e.Store.Sessions(recall.SessionOptions{
		HotSessions: e.Config.Session.HotSessions,
		StaleAfter:  time.Duration(e.Config.Session.StaleDays) * 24 * time.Hour,
	})
}

// Sessions is the session lifecycle over the open store.
func (e *Engine) Sessions() *journal.Service {
	j := &journal.Service{
		Store:    e.SessionStore(),
		Memories: e.mem,
		Dir:      e.memoryDir(),
		Budget:   e.Config.Hook.ContextTokens,
		Upkeep:   e.heartbeatUpkeep(),
		Checker:  e.Store.Upkeep(),
		Now:      e.Now,
	}
	j.Context = e.sessionContextBuilder(j)
	return j
}

// sessionContextBuilder assembles the bootstrap context of a session: the
// heartbeat's findings first, then the sections of `recall context`
// (pinned core, working set, recent sessions, and whatever other areas add
// there), all within one budget.
func (e *Engine) sessionContextBuilder(j *journal.Service) recall.ContextBuilder {
	heartbeat := pack.Section{Name: "heartbeat", Title: "recall heartbeat", Fetch: j.Findings}
	sections := append([]pack.Section{heartbeat}, e.contextSections()...)
	// The session start has just read the sessions and pins to write the
	// views: the context takes them from there (about 0.4 ms of a hook's
	// CPU each time they are read).
	for i := range sections {
		switch sections[i].Name {
		case "pinned":
			sections[i].Fetch = j.PinnedCore(sections[i].Fetch)
		case "sessions":
			sections[i].Fetch = j.RecentSessions
		}
	}
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
// heartbeat (SessionUpkeep), or, with DeferUpkeep, leaves for after the
// reply.
func (e *Engine) heartbeatUpkeep() journal.Upkeep {
	return journal.UpkeepFunc(func(ctx context.Context, _ time.Time) (int, error) {
		if e.DeferUpkeep {
			if e.upkeepDue(e.Now()) && e.claimUpkeep() {
				e.upkeepDeferred.Store(true)
			}
			return 0, nil
		}
		return e.SessionUpkeep(ctx, 0), nil
	})
}
