package main

import (
	"encoding/json"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/markdown"
	"github.com/spf13/cobra"
)

func (a *app) updateCommand() *cobra.Command {
	var content, title, tags, metadata, typ, category, context, priority, project, tier, status, collection string
	var mergeTags, jsonOut bool
	c := &cobra.Command{
		Use:   "update ID|KEY",
		Short: "Change fields of a memory (a new version; the old one is kept)",
		Long: `Change fields of a memory. Each update that changes something writes a new
version and keeps the old one; an update that changes nothing (no flags, or
the values it already has) writes none and says "unchanged".`,
		Example: `  recall update gpu-patterns --content updated.md
  recall update gpu-patterns --tags gpu,metal --merge-tags`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			var upd recall.MemoryUpdate
			upd.Title, upd.Type, upd.Category = given(c, "title", title), given(c, "type", typ), given(c, "category", category)
			upd.Context, upd.Priority, upd.Project = given(c, "context", context), given(c, "priority", priority), given(c, "project", project)
			upd.Tier, upd.Status = given(c, "tier", tier), given(c, "status", status)
			if c.Flags().Changed("content") {
				doc, err := a.readInput(content)
				if err != nil {
					return err
				}
				s := string(doc)
				upd.Content = &s
			}
			if c.Flags().Changed("tags") {
				t := recall.NormalizeTags(markdown.SplitList(tags))
				upd.Tags, upd.MergeTags = &t, mergeTags
			} else if mergeTags {
				return usagef("--merge-tags needs --tags")
			}
			if c.Flags().Changed("metadata") {
				raw, err := engine.ParseMetadata("metadata", metadata)
				if err != nil {
					return err
				}
				upd.Metadata = (*json.RawMessage)(&raw)
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			m, err := a.eng.Get(c.Context(), args[0], collection)
			if err != nil {
				return err
			}
			was := m.Version
			if m, err = a.eng.Update(c.Context(), m.ID, upd); err != nil {
				return err
			}
			unchanged := m.Version == was
			if jsonOut {
				return writeJSON(a.stdout, map[string]any{"id": m.ID, "key": m.Key, "collection": m.Collection, "version": m.Version, "unchanged": unchanged})
			}
			if unchanged {
				fprintf(a.stdout, "%s unchanged: version %d kept (no flag changed a field)\n", m.ID, m.Version)
				return nil
			}
			fprintf(a.stdout, "%s version %d\n", m.ID, m.Version)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&content, "content", "", "new content from `FILE` or - for stdin")
	fl.StringVar(&title, "title", "", "new title")
	fl.StringVar(&tags, "tags", "", "new tags `a,b` (replace, or add with --merge-tags)")
	fl.BoolVar(&mergeTags, "merge-tags", false, "add --tags to the existing tags")
	fl.StringVar(&metadata, "metadata", "", "JSON object merged into the metadata (null removes a key)")
	fl.StringVar(&typ, "type", "", "new type")
	fl.StringVar(&category, "category", "", "new category")
	fl.StringVar(&context, "context", "", "new context")
	fl.StringVar(&priority, "priority", "", "new priority")
	fl.StringVar(&project, "project", "", "new project")
	fl.StringVar(&tier, "tier", "", "new tier: working, register or archive")
	fl.StringVar(&status, "status", "", "new status: active, superseded, archived or compacted")
	fl.StringVar(&collection, "collection", "", "look the key up in this collection")
	fl.BoolVar(&jsonOut, "json", false, "print {id, key, collection, version}")
	return c
}

func (a *app) deleteCommand() *cobra.Command {
	var collection string
	var jsonOut bool
	c := &cobra.Command{
		Use:   "delete ID|KEY",
		Short: "Remove a memory (its history stays restorable until purged)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := a.open(c.Context()); err != nil {
				return err
			}
			m, err := a.eng.Get(c.Context(), args[0], collection)
			if err != nil {
				return err
			}
			if err := a.eng.Delete(c.Context(), m.ID); err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, map[string]any{"id": m.ID, "deleted": true})
			}
			fprintf(a.stdout, "Deleted %s; restore it with: recall restore %s --version %d\n", m.ID, m.ID, m.Version)
			return nil
		},
	}
	c.Flags().StringVar(&collection, "collection", "", "look the key up in this collection")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}
