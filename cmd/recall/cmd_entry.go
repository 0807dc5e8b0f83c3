package main

import (
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
	"github.com/spf13/cobra"
)

// entryActions describes the single-entry commands.
var entryActions = map[string]struct {
	action, short, long, done string
}{
	"pin": {maintain.ActPin, "Pin a memory as core memory (never a pressure candidate, never evicted)",
		"Pin a memory: it is core memory, never a pressure candidate, never swept and never\nevicted. Pinning a second memory with the same title as a pinned one is refused.", "Pinned"},
	"unpin":  {maintain.ActUnpin, "Unpin a memory", "Unpin a memory so that maintenance may demote it again.", "Unpinned"},
	"snooze": {maintain.ActSnooze, "Snooze a memory: no pressure candidate for a while (default 30 days)", "Snooze a memory: it is not a pressure candidate or a stale entry until the\nsnooze ends (--days, default 30). Counts as a review.", "Snoozed"},
	"demote": {maintain.ActDemote, "Move a working memory to the register inbox (memory/registers/_inbox.md)",
		"Demote a working memory to the register tier: its line moves, whole and unchanged,\nfrom the working file to memory/registers/_inbox.md (created with its header).", "Demoted"},
	"archive": {maintain.ActArchive, "Move a memory to the archive (memory/archive/ARCHIVE.md)",
		"Archive a memory: status archived, tier archive; its line moves, whole and\nunchanged, to memory/archive/ARCHIVE.md (created with its header). Archived\nmemories stay searchable but are never loaded automatically.", "Archived"},
	"supersede": {maintain.ActSupersede, "Mark a memory superseded (the next maintain archives it)",
		"Mark a memory superseded: the next 'recall maintain' offers to archive it.", "Marked superseded"},
	"review": {maintain.ActVerify, "Mark a memory reviewed now (and accept its anchored files as they are)",
		"Mark a memory reviewed now: it is not stale for another 30 days, and the hashes of\nits anchored files are refreshed, so that a changed file no longer flags it.", "Reviewed"},
}

// entryCommand builds `recall pin|unpin|snooze|demote|archive|supersede|review ID`.
func (a *app) entryCommand(name string) *cobra.Command {
	spec := entryActions[name]
	var root string
	var days int
	var jsonOut bool
	c := &cobra.Command{
		Use:     name + " ID|KEY",
		Short:   spec.short,
		Long:    spec.long + "\n\nThe store changes in one transaction. The entry's line moves whole, with its\n^id, between the managed files (working file, registers, archive); nothing else\nin any file changes.",
		Example: "  recall " + name + " tr8f2a1c3d7e\n  recall " + name + " ^tr8f2a1c3d7e --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			id := trimCaret(args[0])
			if days <= 0 {
				return usagef("--days must be positive")
			}
			now := a.now()
			d, err := a.eng.EntryAction(c.Context(), root, id, spec.action, name, days, now)
			if err != nil {
				return err
			}
			id = d.ID
			if jsonOut {
				return writeJSON(a.stdout, d)
			}
			switch {
			case d.From != "":
				fprintf(a.stdout, "%s ^%s: %s -> %s\n", spec.done, id, d.From, d.File)
			case name == "snooze":
				fprintf(a.stdout, "%s ^%s until %s\n", spec.done, id, now.AddDate(0, 0, days).Format("2006-01-02"))
			default:
				fprintf(a.stdout, "%s ^%s\n", spec.done, id)
			}
			return nil
		},
	}
	c.Flags().StringVar(&root, "root", "", "project root `DIR` holding the managed files (default: the project store's parent, else the working directory)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print {id, action, from, file, tier}")
	days = recall.DefaultSnoozeDays
	if name == "snooze" {
		c.Flags().IntVar(&days, "days", recall.DefaultSnoozeDays, "days the snooze lasts")
	}
	return c
}

// trimCaret accepts an id as it appears in a file, with its leading ^.
func trimCaret(s string) string {
	if len(s) > 0 && s[0] == '^' {
		return s[1:]
	}
	return s
}
