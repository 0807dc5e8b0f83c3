package markdown

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// WriteFileAtomic replaces the file at p with data: it writes a temporary
// file beside it, syncs it and renames it over p, so that a crash leaves
// either the old or the new content, never a mix. An existing file keeps
// its permissions; a new one gets perm.
func WriteFileAtomic(p string, data []byte, perm fs.FileMode) error {
	if fi, err := os.Stat(p); err == nil {
		perm = fi.Mode().Perm()
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(p)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := os.Rename(name, p); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // make the rename durable where the platform allows
		d.Close()
	}
	return nil
}

// Dirty returns the paths of the files changed in memory.
func (s *Set) Dirty() []string {
	var out []string
	for _, f := range s.Files {
		if f.Dirty {
			out = append(out, f.Path)
		}
	}
	return out
}

// Write saves every changed file atomically. Files that gained lines are
// written before files that lost them, so that a crash part-way through a
// move leaves the entry in both files (which maintain reports as a
// duplicate id) rather than in neither. On error the files already written
// are put back. Undo restores every written file to what was read.
func (s *Set) Write() (undo func() error, err error) {
	var dirty []*File
	for _, f := range s.Files {
		if f.Dirty {
			dirty = append(dirty, f)
		}
	}
	sort.SliceStable(dirty, func(i, j int) bool { return dirty[i].grew && !dirty[j].grew })
	type saved struct {
		f     *File
		orig  []byte
		isNew bool
	}
	var done []saved
	undo = func() error {
		var errs []error
		for _, d := range done {
			p := filepath.Join(s.Root, filepath.FromSlash(d.f.Path))
			if d.isNew {
				if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
					errs = append(errs, err)
				}
				continue
			}
			errs = append(errs, WriteFileAtomic(p, d.orig, 0o644))
		}
		return errors.Join(errs...)
	}
	for _, f := range dirty {
		if err := WriteFileAtomic(filepath.Join(s.Root, filepath.FromSlash(f.Path)), f.Bytes(), 0o644); err != nil {
			return nil, errors.Join(err, undo())
		}
		done = append(done, saved{f, f.orig, f.IsNew})
	}
	for _, f := range dirty {
		f.Dirty, f.grew, f.IsNew, f.orig = false, false, false, f.Bytes()
	}
	return undo, nil
}
