package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSync loads any working file and register file whole and syncs them
// with a new store through the CLI: sync either succeeds or refuses with a
// message that is not an internal error, and once it has succeeded a
// second sync finds nothing to do and leaves every file as it was.
func FuzzSync(f *testing.F) {
	for _, s := range [][2]string{
		{"# Working\n- Dave prefers tabs ^tr0000000001\n- untagged fact\n", "# People\n- Eve runs CI ^tr0000000003\n"},
		{"- dup ^tr0000000001\n", "- dup again ^tr0000000001\n"},
		{"```\n- fenced ^tr0000000002\n```\n- x\r\n", "---\ntitle: x\n---\n- y\n"},
		{"- \n- [ ] loop due: 2026-01-01\n- ^tr0000000004\n", "<!-- recall:begin -->\n- a\n<!-- recall:end -->"},
		{"- multi\n  continued ^tr0000000005\n", "\xff\xfe- bad utf8 ^tr0000000006\n"},
		{"", ""},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, working, register []byte) {
		root := t.TempDir()
		t.Chdir(root)
		run := func(args ...string) (int, string, string) {
			var out, errOut bytes.Buffer
			code := newApp(strings.NewReader(""), &out, &errOut).execute(context.Background(), args)
			return code, out.String(), errOut.String()
		}
		if code, _, stderr := run("init"); code != 0 {
			t.Fatalf("init: %d %s", code, stderr)
		}
		files := map[string][]byte{"CLAUDE.local.md": working, "memory/registers/fuzz.md": register}
		for p, b := range files {
			p = filepath.Join(root, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		code, _, stderr := run("sync")
		if strings.Contains(stderr, "nternal error") || strings.Contains(stderr, "panic") {
			t.Fatalf("sync of %q and %q: %d %s", working, register, code, stderr)
		}
		if code != 0 {
			return // refused: duplicates, invalid entries
		}
		before := map[string]string{}
		for p := range files {
			b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			before[p] = string(b)
		}
		code, stdout, stderr := run("sync")
		if code != 0 || !strings.Contains(stdout, "nothing to sync") {
			t.Fatalf("second sync of %q and %q: %d\n%s%s\nfiles after the first: %q", working, register, code, stdout, stderr, before)
		}
		for p, want := range before {
			if b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p))); string(b) != want {
				t.Fatalf("second sync changed %s: %q -> %q", p, want, b)
			}
		}
	})
}
