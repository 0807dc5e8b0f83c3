package markdown

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-mem/recall"
)

// Paths of the managed layout (seed 000), relative to the project root.
const (
	RegistersDir = "memory/registers"
	ArchiveDir   = "memory/archive"
	DailyDir     = "memory/daily"
	InboxFile    = "memory/registers/_inbox.md"
	ArchiveFile  = "memory/archive/ARCHIVE.md"
	OpenLoopFile = "memory/registers/open-loops.md"
)

// Headers of the files maintenance creates (seed 000), each followed by a
// blank line before the first entry.
const (
	InboxHeader   = "# Inbox\n> Entries demoted from working memory. Review and file into appropriate registers.\n\n"
	ArchiveHeader = "# Archive\n> Archived memory entries. Searchable but never auto-loaded.\n\n"
)

// Set is every managed file of a project, loaded.
type Set struct {
	Root        string // the project root, absolute
	WorkingFile string // relative path of the working file
	Files       []*File
}

// Location is where an item sits.
type Location struct {
	File string
	Line int
	Item Item
}

// Load reads the managed files under root: the working file (when it
// exists), memory/registers/*.md and memory/archive/**/*.md.
func Load(root, workingFile string) (*Set, error) {
	if workingFile == "" {
		workingFile = recall.DefaultWorkingFile
	}
	s := &Set{Root: root, WorkingFile: filepath.ToSlash(workingFile)}
	paths := []string{s.WorkingFile}
	regs, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(RegistersDir), "*.md"))
	if err != nil {
		return nil, err
	}
	for _, p := range regs {
		paths = append(paths, relSlash(root, p))
	}
	archRoot := filepath.Join(root, filepath.FromSlash(ArchiveDir))
	err = filepath.WalkDir(archRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".md") {
			paths = append(paths, relSlash(root, p))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", ArchiveDir, err)
	}
	sort.Strings(paths[1:])
	for _, p := range paths {
		buf, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		s.Files = append(s.Files, NewFile(p, s.TierOf(p), buf))
	}
	return s, nil
}

func relSlash(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// TierOf derives a tier from a file's location: the working file is
// working, registers are register, the archive is archive.
func (s *Set) TierOf(p string) string {
	switch {
	case p == s.WorkingFile:
		return recall.TierWorking
	case strings.HasPrefix(p, ArchiveDir+"/"):
		return recall.TierArchive
	default:
		return recall.TierRegister
	}
}

// HomeOf is the file an entry moving to tier goes to.
func (s *Set) HomeOf(tier string) string {
	switch tier {
	case recall.TierWorking:
		return s.WorkingFile
	case recall.TierArchive:
		return ArchiveFile
	}
	return InboxFile
}

// File returns the loaded file at p, or nil.
func (s *Set) File(p string) *File {
	for _, f := range s.Files {
		if f.Path == p {
			return f
		}
	}
	return nil
}

// open returns the file at p, creating it in memory (with the seed's
// header for the inbox and the archive) when it does not exist.
func (s *Set) open(p string) *File {
	if f := s.File(p); f != nil {
		return f
	}
	header := ""
	switch p {
	case InboxFile:
		header = InboxHeader
	case ArchiveFile:
		header = ArchiveHeader
	}
	f := NewFile(p, s.TierOf(p), []byte(header))
	f.IsNew, f.Dirty = true, true
	s.Files = append(s.Files, f)
	return f
}

// Entries returns every entry with an id, in file order.
func (s *Set) Entries() []recall.ManagedEntry {
	var out []recall.ManagedEntry
	for _, f := range s.Files {
		for _, it := range f.Items() {
			if it.ID != "" {
				out = append(out, recall.ManagedEntry{ID: it.ID, File: f.Path, Line: it.Line, Text: it.Text, Tier: f.Tier})
			}
		}
	}
	return out
}

// Untagged returns the items that have no id yet.
func (s *Set) Untagged() []Location {
	var out []Location
	for _, f := range s.Files {
		for _, it := range f.Items() {
			if it.ID == "" {
				out = append(out, Location{File: f.Path, Line: it.Line, Item: it})
			}
		}
	}
	return out
}

// Duplicates returns every id found on more than one entry, with all its
// locations, ids in order of first appearance.
func (s *Set) Duplicates() (ids []string, where map[string][]Location) {
	where = map[string][]Location{}
	for _, f := range s.Files {
		for _, it := range f.Items() {
			if it.ID == "" {
				continue
			}
			if len(where[it.ID]) == 1 {
				ids = append(ids, it.ID)
			}
			where[it.ID] = append(where[it.ID], Location{File: f.Path, Line: it.Line, Item: it})
		}
	}
	for id, locs := range where {
		if len(locs) < 2 {
			delete(where, id)
		}
	}
	return ids, where
}

// Find returns the file holding the entry with id, or nil.
func (s *Set) Find(id string) *File {
	for _, f := range s.Files {
		if f.findID(id) >= 0 {
			return f
		}
	}
	return nil
}

// Move cuts the entry line with id from its file and appends it, whole and
// unchanged, to the file at dest. It returns the source file's path.
func (s *Set) Move(id, dest string) (string, error) {
	src := s.Find(id)
	if src == nil {
		return "", fmt.Errorf("no managed entry ^%s", id)
	}
	if src.Path == dest {
		return src.Path, nil
	}
	line, err := src.Remove(id)
	if err != nil {
		return "", err
	}
	s.open(dest).Append(line)
	return src.Path, nil
}

// Add appends a new entry line to the file at dest.
func (s *Set) Add(dest, text, id string) {
	s.open(dest).Append(EntryLine(text, id))
}

// Display is how reports name a file: paths under memory/ lose that
// prefix (registers/tech-stack.md), as in seed 000.
func Display(p string) string {
	return strings.TrimPrefix(p, "memory/")
}
