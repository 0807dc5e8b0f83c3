package main

import (
	"strings"

	"github.com/recall-mem/recall/engine"
	"github.com/spf13/cobra"
)

// completing reports whether args ask for shell completions (the shell
// scripts call 'recall __complete …'): only then does execute register
// them, since walking every command's flags for it cost a hook or a
// search a few hundred microseconds for nothing.
func completing(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// registerCompletions makes the shell complete what the store holds, not
// only command and flag names: memory keys for the commands that take
// ID|KEY, and the values of --collection, --tags and --session.
func (a *app) registerCompletions(c *cobra.Command) {
	if strings.Contains(c.Use, "ID|KEY") && c.ValidArgsFunction == nil {
		c.ValidArgsFunction = func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return a.complete(cmd, engine.CompleteKeys, "", prefix)
		}
	}
	for flag, kind := range map[string]string{"collection": engine.CompleteCollections, "tags": engine.CompleteTags, "session": engine.CompleteSessions} {
		if c.LocalFlags().Lookup(flag) == nil {
			continue
		}
		_ = c.RegisterFlagCompletionFunc(flag, func(cmd *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
			if flag != "tags" {
				return a.complete(cmd, kind, "", prefix)
			}
			// --tags a,b,c: complete the last tag, keeping those before it.
			done, last := "", prefix
			if i := strings.LastIndexByte(prefix, ','); i >= 0 {
				done, last = prefix[:i+1], prefix[i+1:]
			}
			return a.complete(cmd, kind, done, last)
		})
	}
	for _, sub := range c.Commands() {
		a.registerCompletions(sub)
	}
}

// complete opens the store and lists the values of kind starting with
// prefix, each after lead. A store that cannot be opened completes
// nothing: completion must never print an error into the shell.
func (a *app) complete(cmd *cobra.Command, kind, lead, prefix string) ([]string, cobra.ShellCompDirective) {
	if err := a.open(cmd.Context()); err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	vs, err := a.eng.Complete(cmd.Context(), kind, prefix)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	for i, v := range vs {
		vs[i] = lead + v
	}
	directive := cobra.ShellCompDirectiveNoFileComp
	if lead != "" || kind == engine.CompleteTags {
		directive |= cobra.ShellCompDirectiveNoSpace // more tags may follow a comma
	}
	return vs, directive
}
