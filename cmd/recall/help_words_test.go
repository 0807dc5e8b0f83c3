package main

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Help speaks to users: it says what a feature does, never which design
// document ("seed 003") it came from.
func TestHelpSaysNoSeeds(t *testing.T) {
	inside := regexp.MustCompile(`(?i)\bseed ?\d{3}|\bseed's\b`)
	root := newApp(strings.NewReader(""), io.Discard, io.Discard).rootCommand()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		texts := []string{c.Short, c.Long, c.Example, c.Flags().FlagUsages()}
		for _, s := range texts {
			if m := inside.FindString(s); m != "" {
				t.Errorf("%s: help cites %q", c.CommandPath(), m)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
