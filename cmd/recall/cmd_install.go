package main

import (
	"os"
	"path/filepath"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/hook"
	"github.com/spf13/cobra"
)

// claudeInstaller returns the installer for the project in the working
// directory, or for the user's settings with --global.
func (a *app) claudeInstaller(command string) (*hook.Installer, error) {
	in := &hook.Installer{Command: command, MCPCommand: "recall", MCPArgs: []string{"mcp"}, Timeout: 10, Now: a.now()}
	if a.eng.GlobalFlag {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, recall.Errorf(recall.EINVALID, "Cannot find the home directory for --global: set HOME.")
		}
		in.SettingsPath = filepath.Join(home, ".claude", "settings.json")
		in.MCPPath = filepath.Join(home, ".claude.json")
		return in, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	in.SettingsPath = filepath.Join(wd, ".claude", "settings.json")
	in.MCPPath = filepath.Join(wd, ".mcp.json")
	return in, nil
}

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
	var uninstall, jsonOut bool
	var command string
	claude := &cobra.Command{
		Use:   "claude",
		Short: "Add recall's hooks and MCP server to Claude Code's settings",
		Long: `Add 'recall hook claude' to Claude Code's hooks (SessionStart,
UserPromptSubmit, PostToolUse, PreCompact, Stop, SessionEnd) in
.claude/settings.json of the working directory, and the MCP server "recall"
(command 'recall mcp') to .mcp.json. With --global, the user's
~/.claude/settings.json and ~/.claude.json instead.

Existing hooks and servers are kept; running it twice changes nothing; every
file changed is first copied to FILE.bak-TIMESTAMP. --uninstall removes
exactly the entries it adds.`,
		Example: `  recall install claude
  recall install claude --global
  recall install claude --uninstall`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			in, err := a.claudeInstaller(command)
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
	claude.Flags().BoolVar(&uninstall, "uninstall", false, "remove what install added")
	claude.Flags().BoolVar(&jsonOut, "json", false, "print the changes as JSON")
	claude.Flags().StringVar(&command, "command", engine.HookCommandLine, "the hook command to install (e.g. with an absolute path)")
	c.AddCommand(claude)
	return c
}
