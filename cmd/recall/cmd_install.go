package main

import (
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/hook"
	"github.com/spf13/cobra"
)

func (a *app) installCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "install",
		Short: "Connect recall to an agent (hooks and MCP server)",
		Long: `Write an agent's settings so that it records its sessions in recall and can
query it over MCP. Only Claude Code is supported so far.`,
		Example: `  recall install claude
  recall install claude --uninstall`,
		Args: cobra.NoArgs,
	}
	var uninstall, jsonOut, user bool
	var command string
	claude := &cobra.Command{
		Use:   "claude",
		Short: "Add recall's hooks and MCP server to Claude Code's settings",
		Long: `Add 'recall hook claude' to Claude Code's hooks (SessionStart,
UserPromptSubmit, PostToolUse, PreCompact, Stop, SessionEnd) in
.claude/settings.json of the working directory, and the MCP server "recall"
(command 'recall mcp') to .mcp.json. With --user, the user's
~/.claude/settings.json and ~/.claude.json instead, for every project.

--command sets the hook command (e.g. with an absolute path); the MCP server
runs the same binary and flags with 'mcp'. With --global the hooks and the
server use the global store ('recall --global hook claude') wherever Claude
Code runs; without it they use the store of the directory it runs in.

Existing hooks and servers are kept; running it twice changes nothing; a
recall hook installed with another command is replaced. Every file changed
is first copied to the store's backups/install/ directory (the path is
printed), under a name no other backup has. --uninstall removes recall's
hooks and MCP server whatever command they were installed with.`,
		Example: `  recall install claude
  recall install claude --user
  recall --global install claude --user
  recall install claude --command "$HOME/go/bin/recall hook claude"
  recall install claude --uninstall`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if a.eng.GlobalFlag && !user {
				fprintf(a.stderr, "note: --global makes the hooks use the global store; it no longer writes ~/.claude: add --user for that\n")
			}
			in, err := a.eng.ClaudeInstaller(command, user, a.now())
			if err != nil {
				return err
			}
			var changes []hook.Change
			if uninstall {
				changes, err = in.Uninstall()
			} else {
				changes, err = in.Install()
			}
			if err != nil {
				return err
			}
			if jsonOut {
				return writeJSON(a.stdout, changes)
			}
			for _, ch := range changes {
				state := "unchanged"
				if ch.Changed {
					state = "updated"
				}
				fprintf(a.stdout, "%s: %s (%s)\n", ch.Path, state, ch.Note)
				if ch.Backup != "" {
					fprintf(a.stdout, "  backup: %s\n", ch.Backup)
				}
			}
			return nil
		},
	}
	claude.Flags().BoolVar(&uninstall, "uninstall", false, "remove recall's hooks and MCP server, whatever --command they were installed with")
	claude.Flags().BoolVar(&jsonOut, "json", false, "print the changes as JSON")
	claude.Flags().BoolVar(&user, "user", false, "write the user's ~/.claude/settings.json and ~/.claude.json instead of the project's")
	claude.Flags().StringVar(&command, "command", engine.HookCommandLine, "the hook command to install (e.g. with an absolute path); the MCP server runs the same binary")
	c.AddCommand(claude)
	return c
}
