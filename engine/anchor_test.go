package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/recall-mem/recall"
)

// anchorFixture is a project root with src/a.go, next to a directory
// outside it with a secret file.
func anchorFixture(t *testing.T) (root, outside string) {
	t.Helper()
	dir := t.TempDir()
	root, outside = filepath.Join(dir, "project"), filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(root, "src"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(root, "src", "a.go"), "package a\n")
	write(t, filepath.Join(outside, "secret.txt"), "secret\n")
	return root, outside
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks: %v", err)
	}
}

func checkPaths(ctx context.Context, root string, paths ...string) (hashes, problems map[string]string) {
	m := &recall.Memory{}
	for _, p := range paths {
		m.Anchors = append(m.Anchors, recall.Anchor{Path: p})
	}
	return CheckAnchors(ctx, root, []*recall.Memory{m})
}

// Anchors are hashed only when they are regular files inside the project
// after links are resolved; a path outside gets the same answer whether
// or not a file exists there, and nothing is read without limit.
func TestCheckAnchors(t *testing.T) {
	root, outside := anchorFixture(t)
	sum := sha256.Sum256([]byte("package a\n"))
	symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "src", "secret.go"))
	symlink(t, filepath.Join(outside, "missing.txt"), filepath.Join(root, "src", "dangling.go"))
	symlink(t, "../../outside/secret.txt", filepath.Join(root, "src", "relative.go"))
	symlink(t, "/dev/zero", filepath.Join(root, "src", "zero.go"))
	symlink(t, "a.go", filepath.Join(root, "src", "alias.go"))
	big := filepath.Join(root, "src", "big.bin")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, maxAnchorBytes+1); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "src", "edge.bin"), "")
	if err := os.Truncate(filepath.Join(root, "src", "edge.bin"), maxAnchorBytes); err != nil {
		t.Fatal(err)
	}

	hashes, problems := checkPaths(context.Background(), root,
		"src/a.go", "src/alias.go", "src/missing.go", "src/a.go/x", "src/edge.bin",
		"../outside/secret.txt", "../outside/missing.txt", "../../../../../dev/zero", "/dev/zero",
		"src/secret.go", "src/dangling.go", "src/relative.go", "src/zero.go", "src", "src/big.bin")
	want := hex.EncodeToString(sum[:])
	for p, h := range map[string]string{"src/a.go": want, "src/alias.go": want, "src/missing.go": "", "src/a.go/x": ""} {
		if got, ok := hashes[p]; !ok || got != h || problems[p] != "" {
			t.Errorf("%s: hash %q (known %v), problem %q; want hash %q", p, got, ok, problems[p], h)
		}
	}
	if hashes["src/edge.bin"] == "" {
		t.Errorf("a file of exactly %d bytes must be hashed: %q", maxAnchorBytes, problems["src/edge.bin"])
	}
	for p, why := range map[string]string{
		"../outside/secret.txt": anchorOutside, "../outside/missing.txt": anchorOutside,
		"../../../../../dev/zero": anchorOutside, "/dev/zero": anchorOutside,
		"src/secret.go": anchorOutside, "src/dangling.go": anchorOutside, "src/relative.go": anchorOutside,
		"src/zero.go": anchorOutside, "src": anchorNotFile, "src/big.bin": anchorTooLarge,
	} {
		if _, ok := hashes[p]; ok || problems[p] != why {
			t.Errorf("%s: problem %q (hashed %v), want %q", p, problems[p], ok, why)
		}
	}
}

// Once the time for a check is spent, the files left are reported as not
// read in time rather than waited for.
func TestCheckAnchors_Deadline(t *testing.T) {
	root, _ := anchorFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	hashes, problems := checkPaths(ctx, root, "src/a.go")
	if len(hashes) != 0 || problems["src/a.go"] != anchorTimedOut {
		t.Fatalf("hashes %v problems %v, want src/a.go not read in time", hashes, problems)
	}
}

func openRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
