package main

import (
	"github.com/spf13/cobra"
)

func (a *app) importCommand() *cobra.Command {
	var jsonOut, observations bool
	c := &cobra.Command{
		Use:   "import FILE|-",
		Short: "Load memories from JSON Lines (as written by export), all or nothing",
		Long: `Load memories from JSON Lines, one memory object per line, as written by
'recall export'. Ids are preserved: a memory whose id exists is updated (a new
version; none when it already holds the same, "unchanged"), others are added. The import is one transaction: on any error
nothing is written.

With --observations the input is observations instead, one JSON object per
line with the fields at (RFC 3339), type, key, session, project, tool, file,
content and metadata (as 'recall timeline --json' prints them, which is also
accepted), again all or nothing.`,
		Example: `  recall import backup.jsonl
  recall import --observations events.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if observations {
				buf, err := a.readInput(args[0])
				if err != nil {
					return err
				}
				return a.importObservations(c, buf, jsonOut)
			}
			defer bulkWriteGC()()
			in, err := a.openInput(args[0])
			if err != nil {
				return err
			}
			defer in.Close()
			if err := a.openForWrite(c.Context()); err != nil {
				return err
			}
			res, err := a.eng.ImportLines(c.Context(), in)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, res)
			}
			fprintf(a.stdout, "Imported %d memories: %d added, %d updated", res.Added+res.Updated, res.Added, res.Updated)
			if res.Unchanged > 0 {
				fprintf(a.stdout, ", %d unchanged (versions kept)", res.Unchanged)
			}
			fprintf(a.stdout, "\n")
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print {added, updated}")
	c.Flags().BoolVar(&observations, "observations", false, "the input is observations (JSON Lines), not memories")
	return c
}

func (a *app) exportCommand() *cobra.Command {
	var ff filterFlags
	c := &cobra.Command{
		Use:   "export",
		Short: "Write memories as JSON Lines, one per line (to move them; 'recall backup' copies the whole store)",
		Example: `  recall export > backup.jsonl
  recall --store /new/place import backup.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			f, err := ff.build(c)
			if err != nil {
				return err
			}
			if !c.Flags().Changed("status") {
				any := "any"
				f.Status = &any
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			return a.eng.Export(c.Context(), f, a.stdout)
		},
	}
	ff.register(c)
	return c
}
