package main

import (
	"github.com/recall-mem/recall/internal/buildinfo"
	"github.com/spf13/cobra"
)

// versionCommand prints the build of this binary; `recall --version` prints
// the same line.
func (a *app) versionCommand() *cobra.Command {
	var jsonOut bool
	c := &cobra.Command{
		Use:   "version",
		Short: "Print recall's version, commit, commit date and Go version",
		Long: `Print the module version recall was built from ("dev" for a build from a
work tree), the VCS commit and its date when the build recorded them, and the
Go version. MCP clients see the same version in serverInfo.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			in := buildinfo.Read()
			if jsonOut {
				return writeJSON(a.stdout, in)
			}
			fprintf(a.stdout, "%s\n", in)
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}
