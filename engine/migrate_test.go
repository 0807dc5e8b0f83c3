package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

func TestSameStore(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{filepath.Join(dir, "real", DBFile), filepath.Join(dir, "link", DBFile), true},
		{filepath.Join(dir, "real", DBFile), filepath.Join(dir, "other", DBFile), false},
		{"postgres://u:one@h/db?namespace=a", "postgres://u:two@h/db?namespace=a", true},
		{"postgres://u@h/db?namespace=a", "postgres://u@h/db?namespace=b", false},
		{"postgres://u@h/db", filepath.Join(dir, "real", DBFile), false},
	} {
		if got := sameStore(c.a, c.b); got != c.same {
			t.Errorf("sameStore(%s, %s) = %v", c.a, c.b, got)
		}
	}
}

func TestOtherStore(t *testing.T) {
	dir := t.TempDir()
	_, _, err := otherStore(filepath.Join(dir, "missing"), true)
	if recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("a missing source: %v", err)
	}
	side, created, err := otherStore(filepath.Join(dir, "new"), false)
	if err != nil || !created || side.path != filepath.Join(dir, "new", DBFile) {
		t.Fatalf("a new target directory: %+v, %v, %v", side, created, err)
	}
	file := filepath.Join(dir, "some.db")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if side, _, err := otherStore(file, true); err != nil || side.path != file {
		t.Fatalf("a database file: %+v, %v", side, err)
	}
	if _, _, err := otherStore(dir, true); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("a directory without a store as the source: %v", err)
	}
	side, _, err = otherStore("postgres://alice:s3cret@h/db", false)
	if err != nil || strings.Contains(side.name, "s3cret") || side.path != "postgres://alice:s3cret@h/db" {
		t.Fatalf("a URL: %+v, %v", side, err)
	}
}

// TestCopyFailed checks what a failed copy says: what to do, never a
// password, and an interruption as one.
func TestCopyFailed(t *testing.T) {
	src := &migrateSide{name: "/a", path: "/a/recall.db"}
	dst := &migrateSide{name: "postgres://alice:xxxxx@h/db", path: "postgres://alice:s3cret@h/db?password=hunter2"}
	err := copyFailed(context.Background(), errors.New("driver said s3cret and hunter2"), recall.CopyVersions, src, dst)
	msg := recall.ErrorMessage(err)
	if recall.ErrorCode(err) != recall.EUNAVAILABLE || strings.Contains(msg, "s3cret") || strings.Contains(msg, "hunter2") ||
		!strings.Contains(msg, "run the same command again") || !strings.Contains(msg, "driver said xxxxx and xxxxx") {
		t.Fatalf("copyFailed = %q (%s)", msg, recall.ErrorCode(err))
	}
	conflict := recall.Errorf(recall.ECONFLICT, "taken")
	if got := copyFailed(context.Background(), conflict, recall.CopyMemories, src, dst); got != conflict {
		t.Fatalf("a domain error is not passed on: %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = copyFailed(ctx, ctx.Err(), recall.CopyVectors, src, dst)
	if !errors.Is(err, context.Canceled) || !strings.Contains(recall.ErrorMessage(err), "interrupted while copying vectors") {
		t.Fatalf("an interruption: %v", err)
	}
}
