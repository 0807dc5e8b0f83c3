package main

import (
	"strconv"

	"github.com/spf13/cobra"
)

// observationCommand groups commands on single observations. Capture adds
// `recall observe` and `recall timeline`; this group holds what acts on an
// observation already recorded.
func (a *app) observationCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "observation",
		Short: "Act on recorded observations (pin landmarks)",
		Args:  cobra.NoArgs,
		RunE:  func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(a.observationPinCommand(true), a.observationPinCommand(false))
	return c
}

func (a *app) observationPinCommand(pin bool) *cobra.Command {
	use, short, done := "pin", "Mark observations as landmarks, which retention sweeps never remove", "Pinned observation %d: retention sweeps keep it.\n"
	if !pin {
		use, short, done = "unpin", "Clear the landmark mark, so retention applies again", "Unpinned observation %d: retention applies to it again.\n"
	}
	var jsonOut bool
	c := &cobra.Command{
		Use:   use + " ID...",
		Short: short,
		Long: short + `.

A landmark is an observation worth keeping past its type's retention period:
the first session of a project, the error that explained a long hunt. Pins protect from sweeps only; 'recall purge' still deletes a pinned
observation. IDs are observation numbers as shown by 'recall purge', 'recall
timeline --json' or 'recall search --observations'.`,
		Example: "  recall observation " + use + " 42 97",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ids := make([]int64, len(args))
			for i, s := range args {
				n, err := strconv.ParseInt(s, 10, 64)
				if err != nil || n <= 0 {
					return usagef("invalid observation id %q: give observation numbers such as 42", s)
				}
				ids[i] = n
			}
			if err := a.open(c.Context()); err != nil {
				return err
			}
			for _, id := range ids {
				if err := a.eng.PinObservation(c.Context(), id, pin); err != nil {
					return err
				}
				if !jsonOut {
					fprintf(a.stdout, done, id)
				}
			}
			if jsonOut {
				return writeJSON(a.stdout, map[string]any{"ids": ids, "pinned": pin})
			}
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print {ids, pinned}")
	return c
}
