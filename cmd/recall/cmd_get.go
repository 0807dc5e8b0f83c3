package main

import (
	"github.com/recall-mem/recall/engine"

	"github.com/recall-mem/recall"
	"github.com/spf13/cobra"
)

func (a *app) getCommand() *cobra.Command {
	var collection, format string
	var version int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "get ID|KEY",
		Short: "Print a memory (or a rollup by its id): AI-ready context (default), JSON or raw content",
		Long: `Print a memory by id or key, or a rollup by its id (as search and tiers
print it; the raw format is its summary).

  --format context  the title, id, when and why it was created, tags and
                    related references, then the content: text to inject
                    into an AI conversation (the default)
  --format json     the whole record
  --format raw      the content only`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if jsonOut {
				format = "json"
			}
			switch format {
			case "context", "json", "raw":
			default:
				return usagef("invalid --format %q: use context, json or raw", format)
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			var m *recall.Memory
			var r *recall.Rollup
			var err error
			if c.Flags().Changed("version") { // --version 0 or less reaches the engine, which refuses it
				m, err = a.eng.GetVersion(c.Context(), args[0], collection, version)
			} else {
				m, r, err = a.eng.Lookup(c.Context(), args[0], collection)
			}
			if err != nil {
				return err
			}
			if r != nil {
				return a.printGotRollup(r, format)
			}
			switch format {
			case "json":
				return writeJSON(a.stdout, m)
			case "raw":
				_, err := a.stdout.Write([]byte(m.Content))
				return err
			}
			_, err = a.stdout.Write([]byte(engine.ContextText(m)))
			return err
		},
	}
	c.Flags().StringVar(&collection, "collection", "", "look the key up in this collection")
	c.Flags().StringVar(&format, "format", "context", "output format: context, json or raw")
	c.Flags().IntVar(&version, "version", 0, "print version `N` instead of the current one")
	c.Flags().BoolVar(&jsonOut, "json", false, "shorthand for --format json")
	return c
}

// printGotRollup prints a rollup get found: JSON, its summary (raw), or
// the summary with its tally and sources.
func (a *app) printGotRollup(r *recall.Rollup, format string) error {
	switch format {
	case "json":
		return writeJSON(a.stdout, r)
	case "raw":
		fprintf(a.stdout, "%s\n", r.Summary)
		return nil
	}
	a.printRollup(r)
	return nil
}
