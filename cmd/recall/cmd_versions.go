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
	c := &cobra.Command{
		Use:   "diff ID|KEY --from N --to M",
		Short: "Show what changed between two versions of a memory (unified diff)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if from <= 0 || to <= 0 {
				return usagef("diff needs --from N and --to M (version numbers from `recall versions %s`)", args[0])
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			out, err := a.eng.Diff(c.Context(), args[0], from, to)
			if err != nil {
				return err
			}
			_, err = a.stdout.Write(out)
			return err
		},
	}
	c.Flags().IntVar(&from, "from", 0, "old version `N`")
	c.Flags().IntVar(&to, "to", 0, "new version `M`")
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
