package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/recall-mem/recall"
)

// Limits on checking anchored files. Anchors arrive from agents and
// imports, so a check must neither read without end (/dev/zero, a huge
// file) nor wait for ever (a FIFO, a slow network mount).
const (
	maxAnchorBytes = 8 << 20
	anchorTimeout  = 10 * time.Second // for all the anchors of one check
)

// Why an anchored file has no hash, as the maintenance plan says it.
const (
	anchorOutside    = "outside the project"
	anchorNotFile    = "not a regular file"
	anchorTooLarge   = "larger than 8 MiB"
	anchorTimedOut   = "not read in time"
	anchorUnreadable = "unreadable"
)

// anchorState is what checking one anchored file found: its hash, or the
// problem that kept it from being hashed. Both empty: the file is gone.
type anchorState struct{ hash, problem string }

// AnchorHashes checks every anchored file now. hashes maps a path to its
// hex SHA-256, or "" when the file is gone; problems maps the paths that
// could not be hashed to the reason (outside the project, not a regular
// file, too large, not read in time).
func AnchorHashes(root string, ms []*recall.Memory) (hashes, problems map[string]string) {
	ctx, cancel := context.WithTimeout(context.Background(), anchorTimeout)
	defer cancel()
	return CheckAnchors(ctx, root, ms)
}

// CheckAnchors hashes the anchored files of ms under root within ctx:
// the hashes by path, and the paths that could not be hashed with why.
func CheckAnchors(ctx context.Context, root string, ms []*recall.Memory) (hashes, problems map[string]string) {
	hashes, problems = map[string]string{}, map[string]string{}
	r, rootErr := os.OpenRoot(root)
	if rootErr == nil {
		defer r.Close()
	}
	for _, m := range ms {
		for _, an := range m.Anchors {
			if _, done := hashes[an.Path]; done {
				continue
			}
			if _, done := problems[an.Path]; done {
				continue
			}
			st := anchorState{problem: anchorUnreadable}
			if rootErr == nil {
				st = checkAnchor(ctx, r, an.Path)
			}
			if st.problem != "" {
				problems[an.Path] = st.problem
			} else {
				hashes[an.Path] = st.hash
			}
		}
	}
	return hashes, problems
}

// checkAnchor hashes the file at the slash-separated path p under root.
// The file must be a regular file inside the root once symbolic links are
// resolved; os.Root resolves them without looking outside, so whether a
// file exists elsewhere on the machine is never answered.
func checkAnchor(ctx context.Context, root *os.Root, p string) anchorState {
	name := filepath.FromSlash(p)
	if !filepath.IsLocal(name) {
		return anchorState{problem: anchorOutside}
	}
	if ctx.Err() != nil {
		return anchorState{problem: anchorTimedOut}
	}
	fi, err := root.Stat(name)
	switch {
	case err != nil:
		return anchorState{problem: openProblem(err)}
	case !fi.Mode().IsRegular():
		return anchorState{problem: anchorNotFile}
	case fi.Size() > maxAnchorBytes:
		return anchorState{problem: anchorTooLarge}
	}
	done := make(chan anchorState, 1)
	go func() { done <- hashAnchor(root, name) }()
	select {
	case st := <-done:
		return st
	case <-ctx.Done():
		return anchorState{problem: anchorTimedOut}
	}
}

// hashAnchor reads and hashes a file that was regular when it was checked.
func hashAnchor(root *os.Root, name string) anchorState {
	// Non-blocking, so that a file replaced by a FIFO since the check does
	// not wait for a writer; reads of a regular file ignore the flag.
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return anchorState{problem: openProblem(err)}
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return anchorState{problem: anchorNotFile}
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, maxAnchorBytes+1))
	if err != nil {
		return anchorState{problem: anchorUnreadable}
	}
	if n > maxAnchorBytes {
		return anchorState{problem: anchorTooLarge}
	}
	return anchorState{hash: hex.EncodeToString(h.Sum(nil))}
}

// openProblem classifies an error from os.Root: a missing file is gone (no
// problem), a link that leaves the root is outside the project.
func openProblem(err error) string {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return ""
	}
	// os does not export the error of a path that escapes its Root.
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
		return anchorOutside
	}
	return anchorUnreadable
}

// ResolveAnchors turns --anchor paths (relative to the working directory
// or absolute) into anchors relative to the project root with the file's
// current hash. Returns EINVALID for a file that cannot be hashed or lies
// outside the project.
func (e *Engine) ResolveAnchors(paths []string) ([]recall.Anchor, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	root, err := e.ProjectRoot("")
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, recall.Errorf(recall.EUNAVAILABLE, "Cannot open the project root %s: %v.", root, err)
	}
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), anchorTimeout)
	defer cancel()
	var out []recall.Anchor
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || !filepath.IsLocal(rel) {
			return nil, recall.Errorf(recall.EINVALID, "Anchor %s is outside the project root %s: anchor files inside the project.", p, root)
		}
		st := checkAnchor(ctx, r, filepath.ToSlash(rel))
		switch st.problem {
		case "":
			if st.hash == "" {
				return nil, recall.Errorf(recall.EINVALID, "Anchor %s is not a readable file: give the path of a file in the project.", p)
			}
		case anchorOutside:
			return nil, recall.Errorf(recall.EINVALID, "Anchor %s resolves outside the project root %s: anchor files inside the project.", p, root)
		default:
			return nil, recall.Errorf(recall.EINVALID, "Anchor %s is %s: anchor a regular file of at most %d MiB in the project.", p, st.problem, maxAnchorBytes>>20)
		}
		out = append(out, recall.Anchor{Path: filepath.ToSlash(rel), Hash: st.hash})
	}
	return out, nil
}
