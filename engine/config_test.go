package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	cfg := DefaultConfig()
	err := parseConfig([]byte("[working]\nbudget_words = 900\n[retention]\nenabled = true\n[retention.days]\nfile_read = 7\n"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Working.BudgetWords != 900 || cfg.Working.File != "CLAUDE.local.md" || !cfg.Retention.Enabled || cfg.Retention.Days["file_read"] != 7 {
		t.Fatalf("got %+v", cfg)
	}
	for in, want := range map[string]string{
		"[working]\nbudget_wrods = 1\n":       `unknown setting "working.budget_wrods" at line 2`,
		"[working\n":                          "line 1",
		"[limits]\nmax_content_bytes = 'x'\n": "line 2",
		"[limits]\nmax_content_bytes = -5\n":  "limits.max_content_bytes = -5 is negative",
		"[retention.days]\nfile_read = -1\n":  "retention.days.file_read = -1 is negative",
	} {
		if err := parseConfig([]byte(in), DefaultConfig()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseConfig(%q) = %v, want it to mention %q", in, err, want)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"[working]\nfile = \"AGENTS.md\"\n", "[retention.days]\nx = 1", "a = [", "[[x]]\n", "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = parseConfig(b, DefaultConfig()) // must not panic
	})
}

// TestLoadStoreConfigLayers: the user's config.toml applies under the
// store's own, key by key.
func TestLoadStoreConfigLayers(t *testing.T) {
	xdg, store := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	user := filepath.Join(xdg, "recall", "config.toml")
	if UserConfigPath() != user {
		t.Fatalf("UserConfigPath = %q, want %q", UserConfigPath(), user)
	}
	write(user, "[working]\nbudget_words = 700\nfile = \"AGENTS.md\"\n[retention.days]\nfile_read = 7\ncommand = 3\n")
	write(filepath.Join(store, ConfigFile), "[working]\nbudget_words = 900\n[retention.days]\ncommand = 5\n")
	cfg, err := LoadStoreConfig(store)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Working.BudgetWords != 900 || cfg.Working.File != "AGENTS.md" || cfg.Retention.Days["file_read"] != 7 || cfg.Retention.Days["command"] != 5 {
		t.Errorf("layered config %+v %v", cfg.Working, cfg.Retention.Days)
	}
	if got := ConfigFiles(store); len(got) != 2 || got[0] != user {
		t.Errorf("ConfigFiles = %v", got)
	}
	write(user, "[working]\nbudgte = 1\n")
	if _, err := LoadStoreConfig(store); err == nil || !strings.Contains(err.Error(), user) {
		t.Errorf("a bad user config: %v, want an error naming %s", err, user)
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(xdg, "none"))
	if cfg, err := LoadStoreConfig(store); err != nil || cfg.Working.File != "CLAUDE.local.md" || len(ConfigFiles(store)) != 1 {
		t.Errorf("without a user config: %+v %v", cfg, err)
	}
}
