package main

import (
	"context"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/prose"
	"github.com/spf13/cobra"
)

// openAt opens the store and returns the command's reference time.
func (a *app) openAt(ctx context.Context, now string) (time.Time, error) {
	t, err := engine.ClockAt(now, a.now())
	if err != nil {
		return t, err
	}
	return t, a.open(ctx)
}

func (a *app) purgeCommand() *cobra.Command {
	var f engine.PurgeRequest
	var nowFlag string
	var olderThan, sample int
	var confirm, jsonOut bool
	c := &cobra.Command{
		Use:   "purge",
		Short: "Delete observations or memories for good: secure delete, no undo",
		Long: `Delete what the filters match, completely. Filters combine with AND and at
least one is required. Observations are purged by default; --memories purges
memories instead, with every version of them (and their vectors), including
memories already deleted whose history still holds their text.

Without --confirm nothing is deleted: purge prints how many entries match and
the first of them (--sample). With --confirm it deletes them with SQLite's
secure_delete on, removes sessions left empty, merges the full-text index so
no token of the deleted text survives, rewrites the database file (VACUUM),
truncates the write-ahead log, records an audit entry (time, criteria,
counts; never content and never the --search text) and logs one line to
stderr. Afterwards the purged text is in no file of the store.

--search matches entries holding every word of the query (for memories, in
the current text or in any earlier version); --match prefix takes each word
as the start of a word (AKIA finds AKIAIOSFODNN7EXAMPLE), --match substring
the query anywhere in the text. A search that finds nothing while a wider
rule would is an error (exit 1) that names the rule; the dry run shows which
rule each entry matched.

The purge also removes the copies: rollups built from what it deletes or
holding the search text (the next recall rollup summarises what they
covered again), session summaries and learned text that match, and the
markdown views, rewritten at once. Pinned observations are purged like any
other: pins only protect from retention sweeps.`,
		Example: `  recall purge --search "sk-proj"                 # see what would go
  recall purge --search "sk-proj" --confirm       # and delete it
  recall purge --search "AKIA" --match prefix     # words starting with AKIA
  recall purge --before 2025-01-01 --confirm
  recall purge --project old-app --confirm
  recall purge --session 7f3c… --confirm
  recall purge --id 42 --confirm                  # one observation
  recall purge --id tr0123456789 --confirm        # one memory and its history
  recall purge --type file_read --older-than 90 --confirm
  recall purge --memories --project old-app --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			now, err := engine.ClockAt(nowFlag, a.now())
			if err != nil {
				return err
			}
			if f.IDSet, f.SearchSet = c.Flags().Changed("id"), c.Flags().Changed("search"); c.Flags().Changed("older-than") {
				f.OlderThan = &olderThan
			}
			cr, err := f.Criteria(now)
			if err != nil {
				return err
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			if !confirm {
				rep, err := a.eng.PlanPurge(c.Context(), cr, max(sample, 0))
				if err != nil {
					return err
				}
				if err := a.printPurgePlan(rep, jsonOut); err != nil {
					return err
				}
				return engine.WiderError(rep)
			}
			rep, err := a.eng.Purge(c.Context(), cr)
			if err != nil {
				return err
			}
			if err := a.printPurge(rep, jsonOut); err != nil {
				return err
			}
			return engine.WiderError(rep)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.Before, "before", "", "only entries from before `DATE` (observation time; memory creation)")
	fl.StringVar(&f.Project, "project", "", "only this project `NAME`")
	fl.StringVar(&f.Session, "session", "", "only this session `ID` (observations)")
	fl.StringVar(&f.ID, "id", "", "only this `ID`: an observation number or a memory id (tr…)")
	fl.StringVar(&f.Type, "type", "", "only this observation or memory `TYPE`")
	fl.IntVar(&olderThan, "older-than", 0, "with --type: only entries older than `DAYS` (0 means any age)")
	fl.StringVar(&f.Search, "search", "", "only entries holding every word of `QUERY`")
	fl.StringVar(&f.Match, "match", "", "how --search matches: `RULE` words (default: whole words), prefix (word starts) or substring (anywhere)")
	fl.BoolVar(&f.Memories, "memories", false, "purge memories and their versions instead of observations")
	fl.BoolVar(&confirm, "confirm", false, "delete for good; without it purge only shows what matches")
	fl.IntVar(&sample, "sample", 10, "show the first `N` matches before deleting")
	fl.BoolVar(&jsonOut, "json", false, "print the plan or the result as JSON")
	fl.StringVar(&nowFlag, "now", "", "reference `TIME` for --older-than (default: the clock)")
	return c
}

func (a *app) printPurgePlan(rep *recall.PurgeReport, jsonOut bool) error {
	if jsonOut {
		if rep.Sample == nil {
			rep.Sample = []recall.PurgeItem{}
		}
		return writeJSON(a.stdout, rep)
	}
	if rep.Matched()+rep.Copies() == 0 {
		fprintf(a.stdout, "Nothing matches %s: nothing to purge.\n", rep.Criteria)
		return nil
	}
	fprintf(a.stdout, "Would purge %s matching %s%s. Nothing was deleted.\n", purgeCounts(rep), rep.Criteria, purgeCopies(rep))
	w := table(a.stdout)
	if rep.Target == recall.PurgeMemories {
		fprintf(w, "ID\tCREATED\tTYPE\tPROJECT\tVERSIONS\tMATCH\tTEXT\n")
		for _, it := range rep.Sample {
			text := oneLine(it.Text, 60)
			if it.Deleted {
				text = "(deleted) " + text
			}
			fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", it.ID, it.At.Format("2006-01-02 15:04"), dash(it.Type), dash(it.Project), it.Versions, dash(it.Rule), text)
		}
	} else {
		fprintf(w, "ID\tAT\tTYPE\tSESSION\tPROJECT\tMATCH\tTEXT\n")
		for _, it := range rep.Sample {
			fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", it.ID, it.At.Format("2006-01-02 15:04"), it.Type, dash(oneLine(it.Session, 16)), dash(it.Project), dash(it.Rule), oneLine(it.Text, 60))
		}
	}
	w.Flush()
	if len(rep.Sample) < rep.Matched() {
		fprintf(a.stdout, "(the first %d of %d shown; --sample N shows more)\n", len(rep.Sample), rep.Matched())
	}
	fprintf(a.stdout, "Run again with --confirm to delete them for good: secure delete, no undo.\n")
	return nil
}

func (a *app) printPurge(rep *recall.PurgeReport, jsonOut bool) error {
	fprintf(a.stderr, "recall: purge at %s %s: %d observations, %d memories, %d versions, %d sessions, %d rollups deleted, %d session texts cleared\n",
		stamp(a.now()), rep.Criteria, rep.Observations, rep.Memories, rep.Versions, rep.Sessions, rep.Rollups, rep.SessionTexts)
	if !rep.Upkeep.Vacuumed || !rep.Upkeep.WALTruncated {
		fprintf(a.stderr, "recall: another process kept the store busy, so deleted text may linger in free space or the WAL; run the same purge again once it is idle: it finds nothing left to delete and finishes the rewrite.\n")
	}
	if jsonOut {
		return writeJSON(a.stdout, rep)
	}
	u := rep.Upkeep
	if rep.Matched()+rep.Copies()+rep.Sessions == 0 {
		fprintf(a.stdout, "Nothing matches %s: nothing was deleted (file rewritten: %v, WAL truncated: %v).\n", rep.Criteria, u.Vacuumed, u.WALTruncated)
		return nil
	}
	fprintf(a.stdout, "Purged %s%s", purgeCounts(rep), purgeCopies(rep))
	if rep.Sessions > 0 {
		fprintf(a.stdout, " and %s", prose.Plural(rep.Sessions, "empty session", "empty sessions"))
	}
	fprintf(a.stdout, " (secure delete, full-text index %s, %d pages freed, file rewritten: %v, WAL truncated: %v).\n", u.FTS, u.FreedPages, u.Vacuumed, u.WALTruncated)
	return nil
}

// purgeCopies names the copies that go with the matches, if any.
func purgeCopies(rep *recall.PurgeReport) string {
	var parts []string
	if rep.Rollups > 0 {
		parts = append(parts, prose.Plural(rep.Rollups, "rollup", "rollups")+" built from them or holding the text")
	}
	if rep.SessionTexts > 0 {
		parts = append(parts, "the summary or learned text of "+prose.Plural(rep.SessionTexts, "session", "sessions"))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", with " + strings.Join(parts, " and ")
}

func purgeCounts(rep *recall.PurgeReport) string {
	if rep.Target == recall.PurgeMemories {
		return prose.Plural(rep.Memories, "memory", "memories") + " with " + prose.Plural(rep.Versions, "version", "versions")
	}
	return prose.Plural(rep.Observations, "observation", "observations")
}
