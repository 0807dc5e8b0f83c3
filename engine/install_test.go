package engine

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestClaudeInstallerUserAndGlobal(t *testing.T) {
	home, store := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	e := &Engine{StoreFlag: store}
	in, err := e.ClaudeInstaller("/bin/recall hook claude", true, now)
	if err != nil {
		t.Fatal(err)
	}
	if in.SettingsPath != filepath.Join(home, ".claude", "settings.json") || in.MCPPath != filepath.Join(home, ".claude.json") {
		t.Errorf("user paths = %s, %s", in.SettingsPath, in.MCPPath)
	}
	if in.MCPCommand != "/bin/recall" || strings.Join(in.MCPArgs, " ") != "mcp" || !in.Now.Equal(now) {
		t.Errorf("mcp = %s %v at %v", in.MCPCommand, in.MCPArgs, in.Now)
	}
	if in.BackupDir != filepath.Join(store, BackupDir, "install") {
		t.Errorf("backup dir = %s", in.BackupDir)
	}
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	g := &Engine{GlobalFlag: true}
	in, err = g.ClaudeInstaller("recall hook claude", false, now)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(in.Command, "--global") || strings.Join(in.MCPArgs, " ") != "--global mcp" {
		t.Errorf("global command = %q, mcp args %v", in.Command, in.MCPArgs)
	}
	if filepath.Base(in.MCPPath) != ".mcp.json" {
		t.Errorf("project mcp path = %s", in.MCPPath)
	}
	if _, err := e.ClaudeInstaller("echo hi", false, now); err == nil {
		t.Error("a command that is not a recall hook was accepted")
	}
}
