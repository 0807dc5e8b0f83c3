//go:build unix

package engine

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO is refused without opening it: opening one for reading would
// wait for a writer for ever.
func TestCheckAnchors_FIFO(t *testing.T) {
	root, _ := anchorFixture(t)
	if err := syscall.Mkfifo(filepath.Join(root, "src", "pipe.go"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	hashes, problems := checkPaths(context.Background(), root, "src/pipe.go")
	if len(hashes) != 0 || problems["src/pipe.go"] != anchorNotFile {
		t.Fatalf("hashes %v problems %v, want not a regular file", hashes, problems)
	}
	// Opened directly, as a file that turned into a FIFO after the check
	// would be, it must not block either.
	r := openRoot(t, root)
	if st := hashAnchor(r, filepath.Join("src", "pipe.go")); st.problem != anchorNotFile {
		t.Fatalf("hashAnchor on a FIFO: %+v", st)
	}
}
