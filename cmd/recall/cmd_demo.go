package main

import (
	"os"

	"github.com/recall-mem/recall/internal/demo"
	"github.com/spf13/cobra"
)

func (a *app) demoCommand() *cobra.Command {
	var keep bool
	c := &cobra.Command{
		Use:   "demo",
		Short: "Run an end-to-end demonstration on a temporary store and narrate it",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			dir, err := os.MkdirTemp("", "recall-demo-")
			if err != nil {
				return err
			}
			if !keep {
				defer os.RemoveAll(dir)
			}
			a.eng.StoreFlag, a.eng.GlobalFlag = dir, false
			if err := a.openForWrite(c.Context()); err != nil {
				return err
			}
			if err := demo.Run(c.Context(), a.eng, a.stdout, a.now); err != nil {
				return err
			}
			if keep {
				fprintf(a.stdout, "\nThe demo store is kept at %s; try: recall --store %s list\n", dir, dir)
			} else {
				fprintf(a.stdout, "\nDone; the temporary store was removed (pass --keep to keep it).\n")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&keep, "keep", false, "keep the temporary store")
	return c
}
