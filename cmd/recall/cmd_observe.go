package main

import (
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/spf13/cobra"
)

func (a *app) observeCommand() *cobra.Command {
	var in engine.ObservationJSON
	var at, meta string
	var jsonOut bool
	c := &cobra.Command{
		Use:   "observe --type T TEXT|-",
		Short: "Record one observation by hand (hooks record them automatically)",
		Long: `Record one observation: a raw event such as a user prompt, a command and its
output, a file edit or a decision. TEXT is the content; "-" reads it from
stdin. Secrets in the content are redacted before it is written.

Types include user_prompt, command, command_error, file_read, file_write,
file_edit, search, mcp_call, session_start, session_end and agent_thinking;
any word is accepted. --key names what the observation is about (e.g.
"editor" for a preference) so that rollups can group values of one thing.`,
		Example: `  recall observe --type decision --key database "We chose SQLite for the store"
  go test ./... 2>&1 | recall observe --type command --session s1 -
  recall observe --type preference --key editor --at 2026-01-31T10:00:00Z "Uses helix"`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			text := args[0]
			if text == "-" {
				b, err := a.readInput("-")
				if err != nil {
					return err
				}
				text = strings.TrimRight(string(b), "\n")
			}
			o, err := in.Manual(text, at, meta)
			if err != nil {
				return err
			}
			if err := a.openForWrite(c.Context()); err != nil {
				return err
			}
			if err := a.eng.Observe(c.Context(), []*recall.Observation{o}); err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, map[string]any{"id": o.ID, "observation": engine.ToObservationJSON(o)})
			}
			fprintf(a.stdout, "Recorded observation %d (%s)\n", o.ID, engine.DescribeObservation(o))
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&in.Type, "type", "", "observation type (required), e.g. command or decision")
	fl.StringVar(&in.Key, "key", "", "what it is about, e.g. editor")
	fl.StringVar(&in.Session, "session", "", "session id")
	fl.StringVar(&in.Project, "project", "", "project name")
	fl.StringVar(&in.Tool, "tool", "", "tool that produced it")
	fl.StringVar(&in.File, "file", "", "file it concerns")
	fl.StringVar(&at, "at", "", "when it happened (`TIME`, RFC 3339 or a date; default now)")
	fl.StringVar(&meta, "metadata", "", "a JSON object of extra fields")
	fl.BoolVar(&jsonOut, "json", false, "print the stored observation as JSON")
	_ = c.MarkFlagRequired("type")
	return c
}

func (a *app) timelineCommand() *cobra.Command {
	var session, project, typ, since, until string
	var limit int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "timeline",
		Short: "List observations in time order (the latest N, oldest first)",
		Long: `List observations in time order, oldest first, ending with the most recent
(at most --limit). --json prints the same field names that import
--observations reads.`,
		Example: `  recall timeline --session 7f3a --json
  recall timeline --project app --since 2026-01-01 --type command_error`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			f := recall.ObservationFilter{Desc: true, Limit: limit}
			f.Session, f.Project, f.Type = given(c, "session", session), given(c, "project", project), given(c, "type", typ)
			if err := engine.ApplyObservationTimes(&f, since, until, a.now()); err != nil {
				return err
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			out, total, err := a.eng.TimelineJSON(c.Context(), f)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, out)
			}
			if len(out) == 0 {
				fprintf(a.stderr, "No observations match. Hooks record them once installed: recall install claude\n")
				return nil
			}
			if err := a.printObservations(out); err != nil {
				return err
			}
			if total > len(out) {
				fprintf(a.stderr, "Showing the latest %d of %d; use --limit or --since for more.\n", len(out), total)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&session, "session", "", "only this session")
	fl.StringVar(&project, "project", "", "only this project")
	fl.StringVar(&typ, "type", "", "only this type")
	fl.StringVar(&since, "since", "", "only at or after `TIME`")
	fl.StringVar(&until, "until", "", "only before `TIME`")
	fl.IntVar(&limit, "limit", 100, "at most `N` observations (the latest)")
	fl.BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}

// importObservations records the observations in buf in one transaction.
func (a *app) importObservations(c *cobra.Command, buf []byte, jsonOut bool) error {
	obs, err := engine.DecodeObservationLines(buf)
	if err != nil {
		return err
	}
	if err := a.openForWrite(c.Context()); err != nil {
		return err
	}
	if err := a.eng.Observe(c.Context(), obs); err != nil {
		return err
	}
	if jsonOut {
		return writeJSON(a.stdout, map[string]int{"added": len(obs)})
	}
	fprintf(a.stdout, "Imported %d observations\n", len(obs))
	return nil
}

// printObservations prints matching observations as a table, newest first.
func (a *app) printObservations(obs []engine.ObservationJSON) error {
	if len(obs) == 0 {
		fprintf(a.stderr, "No observations match.\n")
		return nil
	}
	w := table(a.stdout)
	fprintf(w, "ID\tOBSERVED\tTYPE\tSESSION\tCONTENT\n")
	for _, o := range obs {
		fprintf(w, "%d\t%s\t%s\t%s\t%s\n", o.ID, stamp(o.At), o.Type, dash(oneLine(o.Session, 12)), oneLine(o.Content, 80))
	}
	return w.Flush()
}
