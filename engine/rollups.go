package engine

import (
	"context"
	"os"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rollup"
	"github.com/recall-mem/recall/timeq"
)

// maxReword caps the summaries one run sends to a chat model.
const maxReword = 100

// Rollups returns the rollup service with the policy of [rollup] timezone.
// Call after open.
func (e *Engine) Rollups() (recall.RollupStore, error) {
	p, err := rollup.NewPolicy(e.Config.Rollup.Timezone)
	if err != nil {
		return nil, err
	}
	return e.Store.Rollups(p), nil
}

// rollupSearcher wraps base so that search covers rollups too (seed 004's
// query strategy). Reading rollups needs no policy.
func (e *Engine) rollupSearcher(base recall.Searcher) recall.Searcher {
	return &rollup.Searcher{Base: base, Rollups: e.Store.Rollups(nil), Now: e.Now, Time: timeq.Parser{}, Observations: e.obs}
}

// RollupSection is the context-pack section that offers rollups in place
// of raw entries; the context builder adds it to its sections.
func (e *Engine) RollupSection() *rollup.Section {
	return &rollup.Section{Rollups: e.Store.Rollups(nil)}
}

// summarizer returns the configured chat summariser, or nil when summaries
// stay deterministic.
func (e *Engine) summarizer() (recall.RollupSummarizer, error) {
	c := e.Config.Rollup
	switch c.Summarizer {
	case "", "rules":
		return nil, nil
	case "chat":
	default:
		return nil, recall.Errorf(recall.EINVALID, "Unknown [rollup] summarizer %q: use rules or chat.", c.Summarizer)
	}
	if c.ChatEndpoint == "" || c.ChatModel == "" {
		return nil, recall.Errorf(recall.EINVALID, "[rollup] summarizer = \"chat\" needs chat_endpoint and chat_model in config.toml.")
	}
	key := ""
	if c.ChatAPIKeyEnv != "" {
		key = os.Getenv(c.ChatAPIKeyEnv)
	}
	return e.parts.NewSummarizer(c.ChatEndpoint, c.ChatModel, key), nil
}

// rollupKeep is RollupRun.Keep from [rollup] keep_4h_days and keep_daily_days.
func (e *Engine) rollupKeep() map[string]time.Duration {
	day := 24 * time.Hour
	return map[string]time.Duration{
		recall.Bucket4h:    time.Duration(e.Config.Rollup.Keep4hDays) * day,
		recall.BucketDaily: time.Duration(e.Config.Rollup.KeepDailyDays) * day,
	}
}

// RunRollups runs the job and, when a chat summariser is configured,
// rewords what it wrote; a failing model is logged, never fatal.
func (e *Engine) RunRollups(ctx context.Context, run recall.RollupRun) (*recall.RollupReport, error) {
	svc, err := e.Rollups()
	if err != nil {
		return nil, err
	}
	sum, err := e.summarizer()
	if err != nil {
		return nil, err
	}
	started := e.Store.Upkeep().Clock()
	run.Keep = e.rollupKeep()
	rep, err := svc.RunRollups(ctx, run)
	if err != nil || sum == nil || run.DryRun {
		return rep, err
	}
	if _, err := rollup.Reword(ctx, svc, sum, started, maxReword); err != nil {
		e.logf("recall: rollup summaries stay deterministic: %v\n", err)
	}
	return rep, nil
}

// OpportunisticRollup rolls up what it can within budget, for session
// start and `recall maintain`: it never fails the caller (errors are
// logged on stderr) and a run cut short resumes next time. 0 means the
// configured [rollup] session_budget_ms.
func (e *Engine) OpportunisticRollup(ctx context.Context, budget time.Duration) *recall.RollupReport {
	if budget <= 0 {
		budget = time.Duration(max(e.Config.Rollup.SessionBudgetMS, 1)) * time.Millisecond
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	svc, err := e.Rollups()
	if err == nil {
		var rep *recall.RollupReport
		if rep, err = svc.RunRollups(ctx, recall.RollupRun{Now: e.Now(), Keep: e.rollupKeep()}); err == nil {
			return rep
		}
	}
	if ctx.Err() != nil && parent.Err() == nil {
		// The budget ran out inside a statement, before a first bucket
		// was done (opening the writer can take the whole of a short
		// slice): that is a run that did nothing yet, which a paced
		// upkeep follows with a longer slice, not a failure.
		return &recall.RollupReport{}
	}
	e.logf("recall: rollup skipped: %s\n", recall.ErrorMessage(err))
	return nil
}
