package main

import (
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/spf13/cobra"
)

func (a *app) contextCommand() *cobra.Command {
	var ff filterFlags
	var query, format, now string
	var budget int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "context [QUERY]",
		Short: "Assemble the context an agent should see, within a token budget",
		Long: `Assemble pinned core memories, the working set and, with --query, the
memories that best match the query, highest value first and without
duplicates. The result never exceeds --budget tokens, counted with the o200k
tokenizer that current OpenAI models use (a close estimate for others).

The query is --query or the words after the command (recall context deploy
rules); give it one way only. --format context prints the text to inject; --format json (or --json) also
reports the tokens each section used and how many items did not fit.`,
		Example: `  recall context
  recall context --query "deploy rules" --budget 800
  recall context database
  recall context --query "database" --format json`,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				if c.Flags().Changed("query") {
					return usagef("give the query once: as words after 'context' or with --query, not both")
				}
				query = strings.Join(args, " ")
			}
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
				budget = a.eng.Config.Hook.ContextTokens
			}
			req := recall.ContextRequest{Query: query, Budget: budget, Now: a.now(), Filter: f}
			if now != "" {
				if req.Now, err = engine.ParseTime("now", now); err != nil {
					return err
				}
			}
			p, err := a.eng.Context(c.Context(), req)
			if err != nil {
				return err
			}
			if format == "json" {
				return writeJSON(a.stdout, p)
			}
			if p.Text == "" {
				switch {
				case p.Dropped > 0:
					fprintf(a.stderr, "Nothing fits in %d tokens: raise --budget (%d did not fit).\n", p.Budget, p.Dropped)
				case query != "":
					fprintf(a.stderr, "Nothing to show: no memory matches %q; try other words, or pin and add working memories.\n", query)
				default:
					fprintf(a.stderr, "Nothing to show: pin memories, add working memories, or pass --query.\n")
				}
				return nil
			}
			fprintf(a.stdout, "%s", p.Text)
			return nil
		},
	}
	ff.register(c)
	c.Flags().StringVar(&query, "query", "", "add the best memories for `TEXT`")
	// No flag default: the default is the store's [hook] context_tokens,
	// read once the store is open, and the usage line says so once.
	c.Flags().IntVar(&budget, "budget", 0, "at most `TOKENS` tokens (default [hook] context_tokens, 2000)")
	c.Flags().StringVar(&format, "format", "context", "output `FORMAT`: context or json")
	c.Flags().BoolVar(&jsonOut, "json", false, "same as --format json")
	c.Flags().StringVar(&now, "now", "", "reference `TIME` for relative time words in the query")
	return c
}
