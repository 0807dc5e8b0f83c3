package engine

import (
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
