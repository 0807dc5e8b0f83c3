package main

import (
	"github.com/spf13/cobra"
)

func (a *app) versionsCommand() *cobra.Command {
	var jsonOut bool
	c := &cobra.Command{
		Use:   "versions ID|KEY",
		Short: "List the stored versions of a memory (also of a deleted one, by id)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := a.open(c.Context()); err != nil {
				return err
			}
			vs, err := a.eng.Versions(c.Context(), args[0])
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, vs)
			}
			w := table(a.stdout)
			fprintf(w, "VERSION\tOP\tCHANGED\tTITLE\n")
			for _, v := range vs {
				fprintf(w, "%d\t%s\t%s\t%s\n", v.Version, v.Op, stamp(v.ChangedAt), oneLine(v.Memory.Title, 60))
			}
			return w.Flush()
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}

func (a *app) diffCommand() *cobra.Command {
	var from, to int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "diff ID|KEY [--from N] [--to M]",
		Short: "Show what changed between two versions of a memory (unified diff)",
		Long: `Show what changed between two versions of a memory: a unified diff of its
fields, then its content. Fields are compared as values (times as instants),
so a version that differs only in form shows no change. --to defaults to the
latest version and --from to the one before --to; with --json the changed
fields are listed with both values.`,
		Example: `  recall diff deploy-rule              # the last change
  recall diff deploy-rule --from 1 --to 3
  recall diff deploy-rule --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if from < 0 || to < 0 {
				return usagef("versions count from 1 (see 'recall versions %s')", args[0])
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			d, err := a.eng.DiffVersions(c.Context(), args[0], from, to)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, d)
			}
			if d.Unified == "" {
				fprintf(a.stdout, "%s: versions %d and %d hold the same\n", d.ID, d.From, d.To)
				return nil
			}
			_, err = a.stdout.Write([]byte(d.Unified))
			return err
		},
	}
	c.Flags().IntVar(&from, "from", 0, "old version `N` (default: the one before --to)")
	c.Flags().IntVar(&to, "to", 0, "new version `M` (default: the latest)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print {id, from, to, fields, content_changed, diff}")
	return c
}

func (a *app) restoreCommand() *cobra.Command {
	var version int
	var jsonOut bool
	c := &cobra.Command{
		Use:   "restore ID|KEY --version N",
		Short: "Write an earlier version back as the newest (recreates a deleted memory)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if version <= 0 {
				return usagef("restore needs --version N (see `recall versions %s`)", args[0])
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			m, err := a.eng.Restore(c.Context(), args[0], version)
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, map[string]any{"id": m.ID, "key": m.Key, "collection": m.Collection, "version": m.Version})
			}
			fprintf(a.stdout, "Restored %s from version %d as version %d\n", m.ID, version, m.Version)
			return nil
		},
	}
	c.Flags().IntVar(&version, "version", 0, "the version `N` to restore")
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}
