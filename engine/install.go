package engine

import (
	"os"
	"path/filepath"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hook"
)

// ClaudeInstaller returns the installer for the project in the working
// directory, or for the user's Claude Code settings with user. The hooks
// and the MCP server run command; with --global they use the global store.
// Backups go to the store's backups/install/ directory, out of the project.
func (e *Engine) ClaudeInstaller(command string, user bool, now time.Time) (*hook.Installer, error) {
	if e.GlobalFlag {
		command = hook.WithGlobalStore(command)
	}
	mcpCmd, mcpArgs, err := hook.MCPCommandFor(command)
	if err != nil {
		return nil, err
	}
	loc, err := ResolveStore(e.StoreFlag, e.GlobalFlag)
	if err != nil {
		return nil, err
	}
	in := &hook.Installer{Command: command, MCPCommand: mcpCmd, MCPArgs: mcpArgs, Timeout: 10, Now: now,
		BackupDir: filepath.Join(loc.Dir, BackupDir, "install")}
	if user {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, recall.Errorf(recall.EINVALID, "Cannot find the home directory for --user: set HOME.")
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
