package main

import (
	"bufio"
	"context"
	"os"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/maintain"
	"github.com/spf13/cobra"
)

// maintainFlags are the options of `recall maintain`. A new mode (such as
// a retention sweep) adds a field here, registers its flag in
// maintainCommand and runs before or after runMaintain.
type maintainFlags struct {
	root         string
	jsonOut      bool
	yes          bool
	apply        string
	snoozeDays   int
	budgetTokens int
	interactive  bool
	now          string
	sweep        bool
}

func (a *app) maintainCommand() *cobra.Command {
	var f maintainFlags
	c := &cobra.Command{
		Use:   "maintain",
		Short: "Keep working memory under budget and review stale, conflicting and open entries",
		Long: `Run maintenance on the managed markdown files (the working file, registers
and archive) and the store.

Preconditions: every managed entry has an id and no id appears twice;
otherwise maintain refuses (exit 1) and says how to fix it.

Then it reconciles files and store (as 'recall sync'), counts the words of the
working entries against the budget ([working] budget_words, default 1500, or
--budget-tokens), and lists candidates:

  - pressure candidates, when working memory is over budget: the smallest
    set of highest-scoring working entries (score = words + 0.1 × days since
    last review) that brings it under; pinned and snoozed entries never are;
  - superseded entries outside the archive, to be archived.

Actions: keep (mark reviewed), pin, snooze (30 days or --snooze-days),
demote (to memory/registers/_inbox.md), archive (to memory/archive/ARCHIVE.md),
supersede. Lines move whole, byte for byte; nothing else in a file changes.

Secondary checks: register entries not reviewed in 30+ days, contradictions
across tiers, open loops in memory/registers/open-loops.md that are resolved
([x]) or past due (due: YYYY-MM-DD), daily logs (memory/daily/YYYY-MM-DD.md)
older than 30 days, and memories anchored to files (recall put --anchor) whose
file changed or disappeared since their last review.

Modes: when stdin is a terminal (or with --interactive) it asks "Apply all /
decide individually?" and then per candidate; --yes applies the recommended
action to every candidate (demote for pressure, archive for superseded);
--apply ID=action,... applies the chosen ones; --json prints the plan and
changes nothing. Without any of them it prints the report and changes only
what reconciling needs.

Maintenance also rolls closed time buckets up (as 'recall rollup', bounded
in time). --sweep instead runs the type-aware retention sweep (as 'recall
sweep'): observations older than their type's [retention.days] go, pinned
ones and rollup sources stay; it deletes nothing while [retention] enabled is
false, except rolled-up raw observations past [rollup] raw_retention_days.`,
		Example: `  recall maintain --json
  recall maintain --yes
  recall maintain --apply tr8f2a1c3d7e=pin,tra1b2c3d4e5=demote
  recall maintain --apply tr8f2a1c3d7e=snooze --snooze-days 7
  recall maintain --budget-tokens 2000 --json
  recall maintain --sweep`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.runMaintain(c, &f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.root, "root", "", "project root `DIR` holding the managed files (default: the project store's parent, else the working directory)")
	fl.BoolVar(&f.jsonOut, "json", false, "print the plan as JSON and change nothing")
	fl.BoolVar(&f.yes, "yes", false, "apply the recommended action to every candidate")
	fl.StringVar(&f.apply, "apply", "", "apply chosen actions: `ID=action,...` (keep, pin, unpin, snooze, demote, archive, supersede, verify)")
	fl.IntVar(&f.snoozeDays, "snooze-days", recall.DefaultSnoozeDays, "days a snooze lasts")
	fl.IntVar(&f.budgetTokens, "budget-tokens", 0, "budget working memory in estimated tokens instead of words")
	fl.BoolVar(&f.interactive, "interactive", false, "ask per candidate on stdin even when it is not a terminal")
	fl.StringVar(&f.now, "now", "", "the current time (for reproducible reports)")
	_ = fl.MarkHidden("now")
	fl.BoolVar(&f.sweep, "sweep", false, "run the retention sweep only ([retention] in config.toml) and report per-type counts")
	return c
}

// stdinIsTerminal reports whether stdin is a character device other than
// the null device (which is one too, and is what daemons and CI give).
func (a *app) stdinIsTerminal() bool {
	f, ok := a.stdin.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

func (a *app) runMaintain(c *cobra.Command, f *maintainFlags) error {
	ctx := c.Context()
	if f.sweep {
		return a.maintainSweep(ctx, f)
	}
	req := engine.MaintainRequest{JSON: f.jsonOut, Yes: f.yes, Apply: f.apply, Now: f.now, SnoozeDays: f.snoozeDays, BudgetTokens: f.budgetTokens}
	choices, now, err := req.Check(a.now())
	if err != nil {
		return err
	}
	ws, err := a.eng.OpenWorkspace(ctx, f.root)
	if err != nil {
		return err
	}
	defer ws.Close() // ws is reloaded below; this releases the first one's lock
	if !f.jsonOut {  // --json changes nothing
		a.eng.OpportunisticRollup(ctx, maintainRollupBudget)
	}
	root := ws.Root
	budget, unit := a.eng.MaintainBudget(f.budgetTokens)
	if f.jsonOut {
		p, err := a.eng.Maintainer(root, func() time.Time { return now }, budget, unit).Plan(ctx)
		if err != nil {
			return err
		}
		return writeJSON(a.stdout, p)
	}
	p, changed, ws, err := a.eng.MaintainPlan(ctx, ws, now, budget, unit)
	if changed > 0 {
		fprintf(a.stderr, "recall: reconciled files and store first (%d entries changed; `recall sync --json` shows how)\n", changed)
	}
	if err != nil {
		return err
	}
	maintain.WriteReport(a.stdout, p)

	interactive := !f.yes && f.apply == "" && (f.interactive || a.stdinIsTerminal())
	texts := map[string]string{}
	switch {
	case f.yes:
		choices = engine.Recommended(p)
	case interactive:
		d := &maintain.Dialog{In: bufio.NewReader(a.stdin), Out: a.stdout, Echo: !a.stdinIsTerminal()}
		choices = d.Candidates(p)
		maintain.WriteChecks(a.stdout, p)
		choices = append(choices, d.Findings(p, texts)...)
	case f.apply == "":
		maintain.WriteChecks(a.stdout, p)
		if maintain.CandidateCount(p) > 0 {
			fprintf(a.stdout, "Nothing applied. Run `recall maintain --yes` to apply the recommended actions, or `recall maintain --apply ID=action,...` to choose.\n")
		} else if len(p.Findings) > 0 {
			fprintf(a.stdout, "Nothing applied. Act on a finding with `recall maintain --apply ID=action,...` (verify, archive, supersede, …) or `recall review ID`.\n")
		}
		return nil
	}
	if !interactive {
		maintain.WriteChecks(a.stdout, p)
	}
	done, err := a.eng.MaintainApply(ctx, ws, p, choices, maintain.Options{Now: now, SnoozeDays: f.snoozeDays}, texts)
	if err != nil {
		return err
	}
	sum, err := a.eng.MaintainSummary(ctx, root, p, done, now.AddDate(0, 0, f.snoozeDays), unit)
	if err != nil {
		return err
	}
	maintain.WriteSummary(a.stdout, sum)
	return nil
}

// maintainRollupBudget bounds the rollups maintenance runs: more than a
// session start may spend, since nobody waits on an agent here.
const maintainRollupBudget = 2 * time.Second

// maintainSweep is `recall maintain --sweep`: the retention sweep alone.
func (a *app) maintainSweep(ctx context.Context, f *maintainFlags) error {
	if f.yes || f.apply != "" || f.interactive {
		return usagef("--sweep runs alone: drop --yes, --apply and --interactive")
	}
	if err := a.open(ctx); err != nil {
		return err
	}
	rep, err := a.eng.Sweep(ctx)
	if err != nil {
		return err
	}
	if f.jsonOut {
		return writeJSON(a.stdout, rep)
	}
	a.printSweep(rep)
	return nil
}
