package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestGolden runs each case of testdata/golden: it copies before/ into a
// fresh project (a store in its .recall/), runs the commands of cmd in
// process (one per line; $ROOT is the project, $CASE the case directory;
// stdin comes from the case's stdin file), and compares what they print
// with stdout and stderr (with "[exit N]" after a failing command) and the
// project's files with after/. Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/golden/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			root := t.TempDir()
			copyTree(t, filepath.Join(dir, "before"), root)
			caseDir, _ := filepath.Abs(dir)
			script, err := os.ReadFile(filepath.Join(dir, "cmd"))
			if err != nil {
				t.Fatal(err)
			}
			stdin, _ := os.ReadFile(filepath.Join(dir, "stdin"))
			in := bytes.NewReader(stdin)
			var out, errOut bytes.Buffer
			for _, line := range strings.Split(string(script), "\n") {
				if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				line = strings.ReplaceAll(strings.ReplaceAll(line, "$ROOT", root), "$CASE", caseDir)
				args := append([]string{"--store", filepath.Join(root, ".recall")}, strings.Fields(line)...)
				if code := newApp(in, &out, &errOut).execute(context.Background(), args); code != 0 {
					fmt.Fprintf(&errOut, "[exit %d]\n", code)
				}
			}
			for name, buf := range map[string]*bytes.Buffer{"stdout": &out, "stderr": &errOut} {
				got := strings.ReplaceAll(buf.String(), root, "$ROOT")
				p := filepath.Join(dir, name)
				if *update {
					os.Remove(p)
					if got != "" {
						writeGolden(t, p, []byte(got))
					}
					continue
				}
				want, err := os.ReadFile(p)
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				if got != string(want) {
					t.Errorf("%s differs (run with -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
				}
			}
			if *update {
				os.RemoveAll(filepath.Join(dir, "after"))
				copyTree(t, root, filepath.Join(dir, "after"))
				return
			}
			compareTrees(t, filepath.Join(dir, "after"), root)
		})
	}
}

// skipStore leaves out the store itself (all of .recall/ but its
// config.toml): the golden files are the project.
func skipStore(rel string) bool {
	return strings.HasPrefix(rel, ".recall/") && rel != ".recall/config.toml"
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() || skipStore(filepath.ToSlash(rel)) {
			return nil
		}
		buf, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeGolden(t, filepath.Join(to, rel), buf)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeGolden(t *testing.T, p string, buf []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// tree reads every file under dir but the store, by slash path.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if rel = filepath.ToSlash(rel); !skipStore(rel) {
			buf, _ := os.ReadFile(p)
			out[rel] = string(buf)
		}
		return nil
	})
	return out
}

func compareTrees(t *testing.T, wantDir, gotDir string) {
	t.Helper()
	want, got := tree(t, wantDir), tree(t, gotDir)
	for p, w := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("%s: missing", p)
		} else if g != w {
			t.Errorf("%s differs (run with -update to accept):\n--- got\n%q\n--- want\n%q", p, g, w)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: unexpected file", p)
		}
	}
}
