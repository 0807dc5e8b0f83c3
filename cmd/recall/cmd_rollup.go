package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chat"
	"github.com/recall-mem/recall/rollup"
	"github.com/recall-mem/recall/timeq"
	"github.com/spf13/cobra"
)

// maxReword caps the summaries one run sends to a chat model.
const maxReword = 100

// rollups returns the rollup service with the policy of [rollup] timezone.
// Call after open.
func (a *app) rollups() (recall.RollupStore, error) {
	p, err := rollup.NewPolicy(a.cfg.Rollup.Timezone)
	if err != nil {
		return nil, err
	}
	return a.st.Rollups(p), nil
}

// rollupSearcher wraps base so that search covers rollups too (seed 004's
// query strategy). Reading rollups needs no policy.
func (a *app) rollupSearcher(base recall.Searcher) recall.Searcher {
	return &rollup.Searcher{Base: base, Rollups: a.st.Rollups(nil), Now: a.now, Time: timeq.Parser{}, Observations: a.obs}
}

// rollupSection is the context-pack section that offers rollups in place
// of raw entries; the context builder adds it to its sections.
func (a *app) rollupSection() *rollup.Section {
	return &rollup.Section{Rollups: a.st.Rollups(nil)}
}

// summarizer returns the configured chat summariser, or nil when summaries
// stay deterministic.
func (a *app) summarizer() (recall.RollupSummarizer, error) {
	c := a.cfg.Rollup
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
	cl := &chat.Client{Endpoint: c.ChatEndpoint, Model: c.ChatModel}
	if c.ChatAPIKeyEnv != "" {
		cl.APIKey = os.Getenv(c.ChatAPIKeyEnv)
	}
	return cl, nil
}

// rollupKeep is RollupRun.Keep from [rollup] keep_4h_days and keep_daily_days.
func (a *app) rollupKeep() map[string]time.Duration {
	day := 24 * time.Hour
	return map[string]time.Duration{
		recall.Bucket4h:    time.Duration(a.cfg.Rollup.Keep4hDays) * day,
		recall.BucketDaily: time.Duration(a.cfg.Rollup.KeepDailyDays) * day,
	}
}

// runRollups runs the job and, when a chat summariser is configured,
// rewords what it wrote; a failing model is logged, never fatal.
func (a *app) runRollups(ctx context.Context, run recall.RollupRun) (*recall.RollupReport, error) {
	svc, err := a.rollups()
	if err != nil {
		return nil, err
	}
	sum, err := a.summarizer()
	if err != nil {
		return nil, err
	}
	started := a.st.Upkeep().Clock()
	run.Keep = a.rollupKeep()
	rep, err := svc.RunRollups(ctx, run)
	if err != nil || sum == nil || run.DryRun {
		return rep, err
	}
	if _, err := rollup.Reword(ctx, svc, sum, started, maxReword); err != nil {
		fprintf(a.stderr, "recall: rollup summaries stay deterministic: %v\n", err)
	}
	return rep, nil
}

// opportunisticRollup rolls up what it can within budget, for session
// start and `recall maintain`: it never fails the caller (errors are
// logged on stderr) and a run cut short resumes next time. 0 means the
// configured [rollup] session_budget_ms.
func (a *app) opportunisticRollup(ctx context.Context, budget time.Duration) *recall.RollupReport {
	if budget <= 0 {
		budget = time.Duration(max(a.cfg.Rollup.SessionBudgetMS, 1)) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	svc, err := a.rollups()
	if err == nil {
		var rep *recall.RollupReport
		if rep, err = svc.RunRollups(ctx, recall.RollupRun{Now: a.now(), Keep: a.rollupKeep()}); err == nil {
			return rep
		}
	}
	fprintf(a.stderr, "recall: rollup skipped: %s\n", recall.ErrorMessage(err))
	return nil
}

func (a *app) rollupCommand() *cobra.Command {
	var nowFlag, explainID string
	var dryRun, jsonOut bool
	c := &cobra.Command{
		Use:   "rollup",
		Short: "Roll closed time buckets up the tiers: 4h, daily, weekly, monthly",
		Long: `Summarise every closed time bucket not yet rolled up (seed 004). Raw
memories (unkeyed, unpinned, outside the working set) and observations are
grouped by type and key into 4h rollups and marked compacted; 4h rollups
make daily ones, daily make weekly (weeks start on Monday), weekly make
monthly. When entries about one key disagree the latest value wins, the
summary says what changed, and confidence falls; repeats raise it. A newer
rollup that contradicts an older one supersedes it.

Each bucket is written in its own transaction, so a run that is stopped
resumes where it stopped, and a second run changes nothing. Buckets are cut
in [rollup] timezone (UTC by default). --dry-run shows what would be
written without writing. --explain ID shows a rollup and its sources.`,
		Example: `  recall rollup
  recall rollup --dry-run --now 2026-03-01
  recall rollup --explain 9b7b691c-21c5-5482-a51c-917489b981ac --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if explainID != "" && (dryRun || nowFlag != "") {
				return usagef("--explain cannot be combined with --dry-run or --now")
			}
			run := recall.RollupRun{DryRun: dryRun}
			if nowFlag != "" {
				t, err := parseTime("now", nowFlag)
				if err != nil {
					return err
				}
				run.Now = t
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			if explainID != "" {
				return a.explainRollup(c.Context(), explainID, jsonOut)
			}
			if run.Now.IsZero() {
				run.Now = a.now()
			}
			rep, err := a.runRollups(c.Context(), run)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, rep)
			}
			a.printRollupReport(rep)
			return nil
		},
	}
	c.Flags().StringVar(&nowFlag, "now", "", "treat `TIME` as now: buckets ending after it stay open")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "show what would be written; write nothing")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	c.Flags().StringVar(&explainID, "explain", "", "show rollup `ID` and its sources")
	return c
}

func (a *app) printRollupReport(rep *recall.RollupReport) {
	var parts []string
	buckets, written := 0, 0
	for _, t := range recall.BucketTypes {
		parts = append(parts, fmt.Sprintf("%d %s", rep.Buckets[t], t))
		buckets += rep.Buckets[t]
		written += rep.Rollups[t]
	}
	verb := "Rolled up"
	if rep.DryRun {
		verb = "Would roll up"
	}
	if buckets == 0 {
		fprintf(a.stdout, "Nothing to roll up: every closed bucket is done.\n")
		return
	}
	fprintf(a.stdout, "%s %s buckets: %d rollups, %d raw entries compacted, %d older rollups superseded, %d old fine rollups pruned.\n",
		verb, strings.Join(parts, ", "), written, rep.Compacted, rep.Conflicts, rep.Pruned)
	if !rep.Done {
		fprintf(a.stdout, "Stopped early; run `recall rollup` again to finish.\n")
	}
	if rep.DryRun && len(rep.Written) > 0 {
		w := table(a.stdout)
		fprintf(w, "TYPE\tBUCKET\tCONF\tSUMMARY\n")
		for _, r := range rep.Written {
			fprintf(w, "%s\t%s\t%.2f\t%s\n", r.BucketType, r.BucketStart.Format("2006-01-02 15:04"), r.Confidence, oneLine(r.Summary, 90))
		}
		w.Flush()
	}
}

func (a *app) explainRollup(ctx context.Context, id string, jsonOut bool) error {
	svc, err := a.rollups()
	if err != nil {
		return err
	}
	r, err := svc.FindRollup(ctx, id)
	if err != nil {
		return err
	}
	if jsonOut {
		return writeJSON(a.stdout, r)
	}
	fprintf(a.stdout, "Rollup %s: %s bucket %s → %s\n", r.ID, r.BucketType, stamp(r.BucketStart), stamp(r.BucketEnd))
	key := r.Key
	if key == "" {
		key = "(none)"
	}
	fprintf(a.stdout, "Type %s, key %s, status %s, confidence %.3f\n", r.MemoryType, key, r.Status, r.Confidence)
	fprintf(a.stdout, "%d sources, %d raw entries, newest %s\n", r.SourceCount, r.Entries, stamp(r.LatestAt))
	fprintf(a.stdout, "Summary: %s\n\nValues (latest or most frequent first):\n", r.Summary)
	w := table(a.stdout)
	for _, v := range r.Values {
		fprintf(w, "  %d×\t%s\t%s\n", v.Count, stamp(v.Last), oneLine(v.Text, 70))
	}
	w.Flush()
	fprintf(a.stdout, "\nSources:\n")
	w = table(a.stdout)
	fprintf(w, "  KIND\tID\tAT\tTEXT\n")
	for _, s := range r.Sources {
		text := oneLine(s.Text, 70)
		if s.Missing {
			text = "(swept)"
		}
		fprintf(w, "  %s\t%s\t%s\t%s\n", s.Kind, s.ID, stamp(s.At), text)
	}
	return w.Flush()
}
