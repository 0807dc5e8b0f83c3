package main

import (
	"github.com/recall-mem/recall"
	"github.com/spf13/cobra"
)

func (a *app) backupCommand() *cobra.Command {
	var jsonOut bool
	c := &cobra.Command{
		Use:   "backup FILE",
		Short: "Copy the whole store to FILE: a consistent snapshot, even while agents write",
		Long: `Write a copy of the whole store to FILE: memories of every status with their
full history (deleted ones included), observations, sessions, rollups,
vectors and indexes. The copy is one consistent snapshot taken while other
processes go on writing (SQLite's VACUUM INTO), checked before it replaces
FILE, so FILE is always a whole backup. Put it back with 'recall
restore-backup FILE'.

'recall export' is different: active memories (or a filter) as JSON Lines, to
move memories into another store or to read them; it leaves out history,
observations, sessions and rollups.`,
		Example: `  recall backup ~/backups/recall-$(date +%F).db
  recall restore-backup ~/backups/recall-2026-03-01.db`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := a.open(c.Context()); err != nil {
				return err
			}
			counts, err := a.eng.Backup(c.Context(), args[0])
			if err != nil {
				return err
			}
			return a.printCounts(jsonOut, "Backed up", counts, "to", args[0])
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print what the backup holds as JSON")
	return c
}

func (a *app) restoreBackupCommand() *cobra.Command {
	var jsonOut, force bool
	c := &cobra.Command{
		Use:   "restore-backup FILE",
		Short: "Replace the store with a backup written by 'recall backup'",
		Long: `Replace everything in the store with the backup in FILE (written by 'recall
backup'). The backup is checked first (SQLite integrity and the full-text
indexes) and never changed; a backup from an older recall is brought up to
date. The store is replaced in one transaction: other processes using it see
the old store or the restored one, never a mix. A store that holds data is
only replaced with --force (back it up first).`,
		Example: `  recall --store /new/place restore-backup backup.db
  recall backup before-restore.db && recall restore-backup --force backup.db`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := a.openForWrite(c.Context()); err != nil {
				return err
			}
			counts, err := a.eng.RestoreBackup(c.Context(), args[0], force)
			if err != nil {
				return err
			}
			return a.printCounts(jsonOut, "Restored", counts, "from", args[0])
		},
	}
	c.Flags().BoolVar(&force, "force", false, "replace a store that holds data")
	c.Flags().BoolVar(&jsonOut, "json", false, "print what the restored store holds as JSON")
	return c
}

// printCounts reports what a backup or a restored store holds.
func (a *app) printCounts(jsonOut bool, did string, c recall.BackupCounts, prep, file string) error {
	if jsonOut {
		return writeJSON(a.stdout, map[string]any{"file": file, "counts": c})
	}
	fprintf(a.stdout, "%s %d memories (%d versions), %d observations, %d sessions, %d rollups and %d vectors %s %s\n",
		did, c.Memories, c.Versions, c.Observations, c.Sessions, c.Rollups, c.Vectors, prep, file)
	return nil
}
