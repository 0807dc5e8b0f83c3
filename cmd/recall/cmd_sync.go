package main

import (
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/maintain"
	"github.com/recall-mem/recall/markdown"
	"github.com/spf13/cobra"
)

func (a *app) initIDsCommand() *cobra.Command {
	var root string
	var jsonOut bool
	c := &cobra.Command{
		Use:   "init-ids",
		Short: "Tag every managed markdown entry that has no id with a new one",
		Long: `Tag every entry of the managed files that has no id yet with a new unique
id (" ^trXXXXXXXXXX" at the end of its line), changing nothing else on any line
or in any file. Managed files: the working file ([working] file in config.toml,
default CLAUDE.local.md), memory/registers/*.md and memory/archive/**/*.md under
the project root.

An entry is a single-line list item ("- text") at the left margin, outside
fenced code blocks and not a placeholder such as "- (none)" or "- _add here_".
Run it before 'recall maintain', which refuses to run on untagged entries.`,
		Example: `  recall init-ids
  recall init-ids --root ~/src/project --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			out, err := a.eng.InitIDs(c.Context(), root)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, map[string]any{"tagged": len(out), "entries": out})
			}
			if len(out) == 0 {
				fprintf(a.stdout, "All managed entries already have ids.\n")
				return nil
			}
			fprintf(a.stdout, "Tagged %d entries:\n", len(out))
			for _, t := range out {
				fprintf(a.stdout, "  %s line %d ^%s\n", maintain.Display(t.File), t.Line, t.ID)
			}
			return nil
		},
	}
	c.Flags().StringVar(&root, "root", "", "project root `DIR` holding the managed files (default: the project store's parent, else the working directory)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print {tagged, entries: [{file, line, id, text}]}")
	return c
}

func (a *app) syncCommand() *cobra.Command {
	var root string
	var jsonOut bool
	c := &cobra.Command{
		Use:   "sync",
		Short: "Reconcile the managed markdown files and the store by id",
		Long: `Reconcile the managed markdown files with the store, entry by entry (by id):

  - the file an entry sits in decides its tier: the working file is working,
    memory/registers/*.md register, memory/archive/**/*.md archive;
  - an entry new to the store is added; an entry without an id is tagged first;
  - an entry edited in a file becomes a new version of its memory;
  - a memory changed in the store since the last sync (recall update, pin,
    a tier change) is rendered back: its line is rewritten or moved;
  - a working memory of the store that no file holds is appended to the
    working file;
  - an entry gone from every file is reported and archived in the store,
    never deleted; an entry deleted from the store is removed from its file.

Files are written first (temporary file and rename), then the store in one
transaction; if that fails the files are put back. After a crash between the
two, running sync again repairs the difference.

If memory/.recall/metadata.json exists (per-entry fields kept beside the
files) it is imported on
the first sync and rewritten from the store on every sync and maintain, keys
sorted with 2-space indentation.`,
		Example: `  recall sync
  recall sync --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			rep, err := a.eng.SyncProject(c.Context(), root, a.now())
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, rep)
			}
			a.printSync(rep)
			return nil
		},
	}
	c.Flags().StringVar(&root, "root", "", "project root `DIR` holding the managed files (default: the project store's parent, else the working directory)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print what changed, by id")
	return c
}

// printSync prints a sync report for people.
func (a *app) printSync(rep *engine.SyncReport) {
	lines := []struct {
		label string
		ids   []string
	}{
		{"added to the store", rep.Added},
		{"edited in a file (new version)", rep.Edited},
		{"moved between files (tier changed)", rep.Retiered},
		{"changed in the store (line rewritten)", rep.Rendered},
		{"tier changed in the store (line moved)", rep.Moved},
		{"working memory added to the working file", rep.Appended},
		{"missing from every file (archived in the store, not deleted)", rep.Missing},
		{"deleted from the store (line removed)", rep.Removed},
	}
	changed := rep.Tagged > 0
	if rep.Tagged > 0 {
		fprintf(a.stdout, "Tagged %d entries with new ids\n", rep.Tagged)
	}
	for _, l := range lines {
		if len(l.ids) == 0 {
			continue
		}
		changed = true
		fprintf(a.stdout, "%d %s:\n", len(l.ids), l.label)
		for _, id := range l.ids {
			fprintf(a.stdout, "  ^%s\n", id)
		}
	}
	if !changed {
		fprintf(a.stdout, "Files and store agree: nothing to sync.\n")
	}
	if rep.Metadata != "" {
		fprintf(a.stdout, "Metadata %s: %s\n", rep.Metadata, markdown.MetadataFile)
	}
}
