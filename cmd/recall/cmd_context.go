package main

import (
	"context"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/journal"
	"github.com/recall-mem/recall/pack"
	"github.com/recall-mem/recall/rollup"
	"github.com/spf13/cobra"
)

// contextHits is how many query hits a context pack considers; the budget
// decides how many of them fit.
const contextHits = 20

// contextBuilder returns the context assembler over the open store: pinned
// core, working set, then the best hits for the query. Call a.open first.
// The hook (SessionStart) and the MCP server use it too; sections from
// other packages (recent sessions, rollups) are appended here.
func (a *app) contextBuilder() recall.ContextBuilder {
	return pack.NewBuilder(a.contextSections()...)
}

// contextSections are the sections of contextBuilder, in priority order.
func (a *app) contextSections() []pack.Section {
	return []pack.Section{
		pack.Pinned(a.mem),
		pack.Working(a.mem),
		pack.Hits(a.search, contextHits),
		pack.Section{Name: rollup.SectionName, Title: "Rollups (what history says now)", Fetch: a.rollupItems},
		pack.Section{Name: "sessions", Title: "Recent sessions", Fetch: journal.RecentSessions(a.sessionStore())},
	}
}

// rollupItems offers the current rollups, which stand in for the raw
// entries they cover.
func (a *app) rollupItems(ctx context.Context, req recall.ContextRequest) ([]recall.ContextItem, error) {
	sec, err := a.rollupSection().Build(ctx, req)
	return sec.Items, err
}

func (a *app) contextCommand() *cobra.Command {
	var ff filterFlags
	var query, format, now string
	var budget int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "context",
		Short: "Assemble the context an agent should see, within a token budget",
		Long: `Assemble pinned core memories, the working set and, with --query, the
memories that best match the query, highest value first and without
duplicates. The result never exceeds --budget tokens, counted with the o200k
tokenizer that current OpenAI models use (a close estimate for others).

--format context prints the text to inject; --format json (or --json) also
reports the tokens each section used and how many items did not fit.`,
		Example: `  recall context
  recall context --query "deploy rules" --budget 800
  recall context --query "database" --format json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			f, err := ff.build(c)
			if err != nil {
				return err
			}
			if jsonOut {
				format = "json"
			}
			if format != "context" && format != "json" {
				return usagef("invalid --format %q: use context or json", format)
			}
			if budget <= 0 && c.Flags().Changed("budget") {
				return usagef("invalid --budget %d: give a positive number of tokens", budget)
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			if !c.Flags().Changed("budget") {
				budget = a.cfg.Hook.ContextTokens
			}
			req := recall.ContextRequest{Query: query, Budget: budget, Now: a.now(), Filter: f}
			if now != "" {
				if req.Now, err = parseTime("now", now); err != nil {
					return err
				}
			}
			p, err := a.contextBuilder().BuildContext(c.Context(), req)
			if err != nil {
				return err
			}
			if format == "json" {
				return writeJSON(a.stdout, p)
			}
			if p.Text == "" {
				fprintf(a.stderr, "Nothing to show: pin memories, add working memories, or pass --query.\n")
				return nil
			}
			fprintf(a.stdout, "%s", p.Text)
			return nil
		},
	}
	ff.register(c)
	c.Flags().StringVar(&query, "query", "", "add the best memories for `TEXT`")
	c.Flags().IntVar(&budget, "budget", 2000, "at most `TOKENS` tokens (default [hook] context_tokens, 2000)")
	c.Flags().StringVar(&format, "format", "context", "output `FORMAT`: context or json")
	c.Flags().BoolVar(&jsonOut, "json", false, "same as --format json")
	c.Flags().StringVar(&now, "now", "", "reference `TIME` for relative time words in the query")
	return c
}
