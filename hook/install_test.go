package hook_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hook"
)

// newInstaller copies the fixture settings and MCP files into a temporary
// project and returns an installer for them.
func newInstaller(t *testing.T, fixtures bool) *hook.Installer {
	t.Helper()
	dir := t.TempDir()
	in := &hook.Installer{
		SettingsPath: filepath.Join(dir, ".claude", "settings.json"),
		MCPPath:      filepath.Join(dir, ".mcp.json"),
		Command:      "recall hook claude", MCPCommand: "recall", MCPArgs: []string{"mcp"},
		Timeout: 10, Now: time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC),
	}
	if fixtures {
		for src, dst := range map[string]string{"settings.json": in.SettingsPath, "mcp.json": in.MCPPath} {
			b, err := os.ReadFile(filepath.Join("testdata", "install", src))
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Dir(dst), 0o755)
			if err := os.WriteFile(dst, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return in
}

func compact(t *testing.T, b []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestInstaller(t *testing.T) {
	t.Run("MergeIdempotentUninstall", func(t *testing.T) {
		in := newInstaller(t, true)
		origSettings, _ := os.ReadFile(in.SettingsPath)
		origMCP, _ := os.ReadFile(in.MCPPath)
		changes, err := in.Install()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			if !c.Changed || c.Backup == "" {
				t.Errorf("install: %+v", c)
			}
		}
		settings, _ := os.ReadFile(in.SettingsPath)
		golden(t, "install/settings.installed.json", settings)
		mcp, _ := os.ReadFile(in.MCPPath)
		golden(t, "install/mcp.installed.json", mcp)
		if backup, _ := os.ReadFile(changes[0].Backup); !bytes.Equal(backup, origSettings) {
			t.Errorf("backup differs from the original")
		}
		events, err := hook.Installed(in.SettingsPath)
		if err != nil || len(events) != len(hook.Events) {
			t.Errorf("installed events %v %v", events, err)
		}

		in.Now = in.Now.Add(time.Minute)
		again, err := in.Install()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range again {
			if c.Changed || c.Backup != "" {
				t.Errorf("second install changed %+v", c)
			}
		}

		in.Now = in.Now.Add(time.Minute)
		if _, err := in.Uninstall(); err != nil {
			t.Fatal(err)
		}
		after, _ := os.ReadFile(in.SettingsPath)
		if compact(t, after) != compact(t, origSettings) {
			t.Errorf("uninstall left:\n%s\nwant:\n%s", after, origSettings)
		}
		afterMCP, _ := os.ReadFile(in.MCPPath)
		if compact(t, afterMCP) != compact(t, origMCP) {
			t.Errorf("uninstall left:\n%s", afterMCP)
		}
	})
	t.Run("FreshProject", func(t *testing.T) {
		in := newInstaller(t, false)
		changes, err := in.Install()
		if err != nil {
			t.Fatal(err)
		}
		if changes[0].Backup != "" || !changes[0].Changed {
			t.Errorf("fresh install %+v", changes[0])
		}
		if _, err := in.Uninstall(); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{in.SettingsPath, in.MCPPath} {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("%s left behind after uninstalling from a fresh project", p)
			}
		}
	})
	t.Run("KeepsForeignRecallServer", func(t *testing.T) {
		in := newInstaller(t, false)
		os.WriteFile(in.MCPPath, []byte(`{"mcpServers":{"recall":{"command":"other-tool"}}}`), 0o600)
		changes, err := in.Install()
		if err != nil {
			t.Fatal(err)
		}
		if changes[1].Changed || !strings.Contains(changes[1].Note, "kept") {
			t.Errorf("foreign server: %+v", changes[1])
		}
	})
	t.Run("UninstallWhateverCommand", func(t *testing.T) {
		in := newInstaller(t, true)
		origSettings, _ := os.ReadFile(in.SettingsPath)
		origMCP, _ := os.ReadFile(in.MCPPath)
		in.Command = "/opt/bin/recall --global hook claude"
		var err error
		if in.MCPCommand, in.MCPArgs, err = hook.MCPCommandFor(in.Command); err != nil {
			t.Fatal(err)
		}
		if _, err := in.Install(); err != nil {
			t.Fatal(err)
		}
		if mcp, _ := os.ReadFile(in.MCPPath); !strings.Contains(compact(t, mcp), `"command":"/opt/bin/recall","args":["--global","mcp"]`) {
			t.Errorf("--command not applied to the MCP server:\n%s", mcp)
		}
		// A reinstall with the default command replaces the custom hooks.
		in.Command, in.MCPCommand, in.MCPArgs = "recall hook claude", "recall", []string{"mcp"}
		changes, err := in.Install()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(changes[0].Note, "6 with another command removed") || !strings.Contains(changes[1].Note, "now runs recall mcp") {
			t.Errorf("reinstall notes %q, %q", changes[0].Note, changes[1].Note)
		}
		settings, _ := os.ReadFile(in.SettingsPath)
		if n := strings.Count(string(settings), "hook claude"); n != len(hook.Events) {
			t.Errorf("%d recall hooks after reinstalling, want %d:\n%s", n, len(hook.Events), settings)
		}
		// Uninstall with yet another command still removes them all.
		in.Command = "/elsewhere/recall hook claude"
		if _, err := in.Uninstall(); err != nil {
			t.Fatal(err)
		}
		after, _ := os.ReadFile(in.SettingsPath)
		afterMCP, _ := os.ReadFile(in.MCPPath)
		if compact(t, after) != compact(t, origSettings) || compact(t, afterMCP) != compact(t, origMCP) {
			t.Errorf("uninstall left:\n%s\n%s", after, afterMCP)
		}
	})
	t.Run("BackupsUniqueOutsideProject", func(t *testing.T) {
		in := newInstaller(t, true)
		in.BackupDir = filepath.Join(t.TempDir(), "backups")
		orig, _ := os.ReadFile(in.SettingsPath)
		seen := map[string]bool{}
		for i := 0; i < 3; i++ { // the same second every time
			var changes []hook.Change
			var err error
			if i%2 == 0 {
				changes, err = in.Install()
			} else {
				changes, err = in.Uninstall()
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range changes {
				if c.Backup == "" {
					continue
				}
				if seen[c.Backup] || filepath.Dir(c.Backup) != in.BackupDir {
					t.Errorf("backup %s reused or outside %s", c.Backup, in.BackupDir)
				}
				seen[c.Backup] = true
			}
		}
		if len(seen) != 6 { // both files changed three times within one second
			t.Errorf("%d backups, want 6: %v", len(seen), seen)
		}
		first := filepath.Join(in.BackupDir, "settings.json.20260203T040506Z.bak")
		if b, _ := os.ReadFile(first); !bytes.Equal(b, orig) {
			t.Errorf("first backup %s was overwritten: %q", first, b)
		}
	})
	t.Run("CommandMustRunRecallHook", func(t *testing.T) {
		if _, _, err := hook.MCPCommandFor("notify-send done"); recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("err = %v, want EINVALID", err)
		}
	})
	t.Run("ErrNotObject", func(t *testing.T) {
		in := newInstaller(t, false)
		os.MkdirAll(filepath.Dir(in.SettingsPath), 0o755)
		os.WriteFile(in.SettingsPath, []byte(`[1, 2`), 0o600)
		if _, err := in.Install(); recall.ErrorCode(err) != recall.EINVALID {
			t.Fatalf("err = %v, want EINVALID", err)
		}
		if b, _ := os.ReadFile(in.SettingsPath); string(b) != "[1, 2" {
			t.Errorf("a broken file was changed: %s", b)
		}
	})
}
