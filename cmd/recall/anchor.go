package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/recall-mem/recall"
)

// anchorHashes hashes every anchored file now; "" marks a file that is gone.
func anchorHashes(root string, ms []*recall.Memory) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for _, an := range m.Anchors {
			if _, done := out[an.Path]; !done {
				out[an.Path] = hashFile(filepath.Join(root, filepath.FromSlash(an.Path)))
			}
		}
	}
	return out
}

// hashFile returns the hex SHA-256 of a file, or "" when it cannot be read.
func hashFile(p string) string {
	buf, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:])
}

// resolveAnchors turns --anchor paths (relative to the working directory
// or absolute) into anchors relative to the project root with the file's
// current hash. Returns EINVALID for a file that cannot be read or lies
// outside the project.
func (a *app) resolveAnchors(paths []string) ([]recall.Anchor, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	root, err := a.projectRoot("")
	if err != nil {
		return nil, err
	}
	var out []recall.Anchor
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, recall.Errorf(recall.EINVALID, "Anchor %s is outside the project root %s: anchor files inside the project.", p, root)
		}
		fi, err := os.Stat(abs)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && !fi.Mode().IsRegular()) {
			return nil, recall.Errorf(recall.EINVALID, "Anchor %s is not a readable file: give the path of a file in the project.", p)
		} else if err != nil {
			return nil, err
		}
		out = append(out, recall.Anchor{Path: filepath.ToSlash(rel), Hash: hashFile(abs)})
	}
	return out, nil
}
