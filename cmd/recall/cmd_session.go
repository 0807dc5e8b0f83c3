package main

import (
	"strings"

	"github.com/recall-mem/recall"
	"github.com/spf13/cobra"
)

// procedureCollection holds stored how-tos (seed 001's procedures).
const procedureCollection = "procedures"

func (a *app) sessionCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "session",
		Short: "Start and end agent sessions (heartbeat, capture, markdown views)",
		Long: `Sessions follow a hot/warm/cold hierarchy: the last few (hot) are shown in
full in memory/RECENT.md; older ones are evicted to memory/archive/YYYY-MM.md
with one line each in memory/SUMMARY.md; pinned core memories are in
memory/PINNED.md. The memory/ directory sits at the project root for a
project store, else inside the store.`,
		Example: `  recall session start
  recall session end --summary "Fixed the login test" --learned "Tokens expire after 30m"
  recall session list`,
		Args: cobra.NoArgs,
	}
	c.AddCommand(a.sessionStartCommand(), a.sessionEndCommand(), a.sessionListCommand())
	return c
}

func (a *app) sessionStartCommand() *cobra.Command {
	var s recall.Session
	var at string
	var jsonOut bool
	c := &cobra.Command{
		Use:   "start",
		Short: "Start a session: run the heartbeat and print the bootstrap context",
		Long: `Start (or resume) a session and run the heartbeat: evict sessions beyond the
last [session] hot_sessions to the archive, run a quick integrity check, flag
stale core memories, update the markdown views, and print the bootstrap
context within [hook] context_tokens.`,
		Example: `  recall session start
  recall session start --session 2026-01-31-auth --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := a.openForWrite(c.Context()); err != nil {
				return err
			}
			rep, err := a.eng.StartSessionAt(c.Context(), &s, at)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, rep)
			}
			fprintf(a.stderr, "Session %s started", rep.Session.ID)
			if len(rep.Evicted) > 0 {
				fprintf(a.stderr, "; archived %s", strings.Join(rep.Evicted, ", "))
			}
			fprintf(a.stderr, "\n")
			fprintf(a.stdout, "%s", rep.Context)
			return nil
		},
	}
	c.Flags().StringVar(&s.ID, "session", "", "session `ID` (default: a new one)")
	c.Flags().StringVar(&s.Project, "project", "", "project name")
	c.Flags().StringVar(&s.Agent, "agent", "", "agent name (default $RECALL_AGENT or the user)")
	c.Flags().StringVar(&at, "at", "", "when it started (`TIME`; default now)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print the heartbeat report as JSON")
	return c
}

func (a *app) sessionEndCommand() *cobra.Command {
	var end recall.SessionEnd
	var jsonOut bool
	c := &cobra.Command{
		Use:   "end --summary TEXT",
		Short: "End a session: capture its summary, what was learned and a pin",
		Long: `Capture a session: its summary, what was learned and, optionally, a memory
to pin (pinned memories are in the working set and never evicted). --pin
pins the existing memory whose key or title it is, or whose key is its slug
("Deploy rule" names deploy-rule); otherwise it creates a pinned core memory
with that title and --learned (else --summary) as its text. Naming a memory
that is already pinned is refused and writes nothing. Without --session, the
newest session that has not ended.`,
		Example: `  recall session end --summary "Fixed the flaky login test" --learned "Tokens expire after 30m" --pin "Token lifetime"`,
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if strings.TrimSpace(end.Summary) == "" {
				return usagef("--summary is required: say in a sentence or two what the session did")
			}
			if err := a.openForWrite(c.Context()); err != nil {
				return err
			}
			s, warning, err := a.eng.EndOpenSession(c.Context(), end)
			if warning != "" {
				fprintf(a.stderr, "recall: warning: %s\n", warning)
			}
			if err != nil {
				return err
			}
			if s.Implicit && c.Flags().Changed("session") {
				fprintf(a.stderr, "recall: warning: session %s was never started: it is recorded now, started and ended at once.\n", s.ID)
			}
			if jsonOut {
				return writeJSON(a.stdout, s)
			}
			fprintf(a.stdout, "Session %s captured\n", s.ID)
			switch {
			case s.PinCreated:
				fprintf(a.stdout, "Pinned a new core memory %q (%s): no memory had that key or title\n", end.Pin, dash(s.PinID))
			case s.PinID != "":
				fprintf(a.stdout, "Pinned the existing memory %s (%q names it)\n", s.PinID, end.Pin)
			}
			return nil
		},
	}
	c.Flags().StringVar(&end.ID, "session", "", "session `ID` (default: the newest open one)")
	c.Flags().StringVar(&end.Summary, "summary", "", "what the session did (required)")
	c.Flags().StringVar(&end.Learned, "learned", "", "what was learned")
	c.Flags().StringVar(&end.Pin, "pin", "", "pin the memory this `KEY|TITLE` names, else a new core memory with this title")
	c.Flags().BoolVar(&jsonOut, "json", false, "print the session as JSON")
	return c
}

func (a *app) sessionListCommand() *cobra.Command {
	var limit int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "list",
		Short: "List sessions, newest first",
		Long: `List sessions, newest first, with their state: hot (shown in
memory/RECENT.md) or cold (archived, one line in memory/SUMMARY.md).`,
		Example: `  recall session list --limit 0 --json`,
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := a.open(c.Context()); err != nil {
				return err
			}
			all, err := a.eng.ListSessions(c.Context(), limit)
			if err != nil {
				return err
			}
			if jsonOut {
				if all == nil {
					all = []*recall.Session{}
				}
				return writeJSON(a.stdout, all)
			}
			w := table(a.stdout)
			fprintf(w, "STARTED\tID\tSTATE\tSUMMARY\n")
			for _, s := range all {
				fprintf(w, "%s\t%s\t%s\t%s\n", stamp(s.StartedAt), s.ID, s.State, dash(oneLine(s.Summary, 70)))
			}
			return w.Flush()
		},
	}
	c.Flags().IntVar(&limit, "limit", 20, "at most `N` sessions (0 for all)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}

func (a *app) procedureCommand() *cobra.Command {
	var list, jsonOut bool
	c := &cobra.Command{
		Use:   "procedure NAME | --list",
		Short: "Print a stored how-to from the procedures collection",
		Long: `Print a procedure: a memory in the "procedures" collection, found by key or
id. Store one with 'recall put FILE --collection procedures'.`,
		Example: `  recall put release.md --collection procedures --key release
  recall procedure release
  recall procedure --list`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if list == (len(args) == 1) {
				return usagef("give a procedure NAME or --list")
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			if list { // the procedures are a collection: list shows them
				lc := a.listCommand()
				lc.SetContext(c.Context())
				if err := lc.Flags().Set("collection", procedureCollection); err != nil {
					return err
				}
				if jsonOut {
					_ = lc.Flags().Set("json", "true")
				}
				return lc.RunE(lc, nil)
			}
			m, err := a.eng.Get(c.Context(), args[0], procedureCollection)
			if recall.ErrorCode(err) == recall.ENOTFOUND {
				return recall.Errorf(recall.ENOTFOUND, "No procedure %q: see `recall procedure --list`.", args[0])
			} else if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, m)
			}
			fprintf(a.stdout, "%s\n", strings.TrimRight(m.Content, "\n"))
			return nil
		},
	}
	c.Flags().BoolVar(&list, "list", false, "list the procedures")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}
