package main

import (
	"github.com/spf13/cobra"
)

func (a *app) putCommand() *cobra.Command {
	var f memoryFlags
	var text string
	var jsonOut bool
	c := &cobra.Command{
		Use:   "put [FILE|-]",
		Short: "Store a memory from a file, stdin or --text",
		Long: `Store a memory. The content comes from FILE, from stdin ("-" or no argument)
or from --text. YAML frontmatter at the top of the input fills fields (title,
key, collection, tags, type, category, context, related, project, priority,
created_by, tier, occurred_at, confidence, pinned, metadata); flags win over
frontmatter. Another key is refused: put fields of your own under metadata.

The key defaults to the slug of the title, else of the first H1, else none.
Putting a key that exists in the collection writes a new version of that
memory instead of a duplicate; a put that changes nothing writes no version
and says "unchanged".`,
		Example: `  recall put notes.md --collection knowledge --tags gpu,performance
  echo "Deploys go through staging first." | recall put --title "Deploy rule" --type decision
  recall put --text "Prefers tabs over spaces" --type preference --key indent-style`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			var doc []byte
			if c.Flags().Changed("text") {
				if len(args) > 0 {
					return usagef("give the content either as FILE or with --text, not both")
				}
				doc = []byte(text)
			} else {
				arg := ""
				if len(args) > 0 {
					arg = args[0]
				}
				var err error
				if doc, err = a.readInput(arg); err != nil {
					return err
				}
			}
			m, err := buildMemory(doc, &f, c)
			if err != nil {
				return err
			}
			if err := a.openForWrite(c.Context()); err != nil {
				return err
			}
			if m.Anchors, err = a.eng.ResolveAnchors(f.anchors); err != nil {
				return err
			}
			res, err := a.eng.Put(c.Context(), m)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, map[string]any{
					"id": res.Memory.ID, "key": res.Memory.Key, "collection": res.Memory.Collection,
					"version": res.Memory.Version, "created": res.Created, "unchanged": res.Unchanged,
				})
			}
			fprintf(a.stdout, "%s\n", res.Memory.ID)
			if res.Unchanged {
				fprintf(a.stderr, "unchanged: %s already holds this; version %d kept\n", res.Memory.ID, res.Memory.Version)
			}
			return nil
		},
	}
	f.register(c)
	c.Flags().StringVar(&text, "text", "", "the content as an argument instead of a file")
	c.Flags().BoolVar(&jsonOut, "json", false, "print {id, key, collection, version, created, unchanged}")
	return c
}
