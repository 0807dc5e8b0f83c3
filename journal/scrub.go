package journal

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/recall-mem/recall"
)

// sessionSep starts every session block after the first line of an
// archive file.
const sessionSep = "\n## Session: "

// Scrub brings every view in line with the store after a purge: RECENT.md
// and PINNED.md are rendered anew, and in the append-only files
// (SUMMARY.md, archive/*.md) the entry of a session still in the store is
// rendered anew from it, while the entry of a session the store no longer
// holds is dropped when drop says so (its text matches the purge).
func (s *Service) Scrub(ctx context.Context, drop func(text string) bool) error {
	if err := s.Refresh(ctx); err != nil {
		return err
	}
	sessions, err := s.Store.FindSessions(ctx, 0)
	if err != nil {
		return err
	}
	byID := map[string]*recall.Session{}
	for _, x := range sessions {
		byID[x.ID] = x
	}
	keep := func(text string) bool { return drop == nil || !drop(text) }
	files, err := filepath.Glob(filepath.Join(s.Dir, ArchiveDir, "*.md"))
	if err != nil {
		return err
	}
	for _, path := range files {
		if err := rewrite(path, func(old string) string { return scrubArchive(old, byID, keep) }); err != nil {
			return err
		}
	}
	return rewrite(filepath.Join(s.Dir, SummaryFile), func(old string) string { return scrubSummary(old, byID, keep) })
}

// scrubArchive renders the blocks of an archive file anew.
func scrubArchive(text string, byID map[string]*recall.Session, keep func(string) bool) string {
	parts := strings.Split(text, sessionSep)
	out := []string{parts[0]}
	for _, p := range parts[1:] {
		header, _, _ := strings.Cut(p, "\n")
		_, id, _ := cutLast(header, " — ")
		if x := byID[id]; x != nil {
			out = append(out, strings.TrimPrefix(sessionBlock(x), strings.TrimPrefix(sessionSep, "\n")))
		} else if keep(p) {
			out = append(out, p)
		}
	}
	return strings.Join(out, sessionSep)
}

// scrubSummary renders the lines of SUMMARY.md anew.
func scrubSummary(text string, byID map[string]*recall.Session, keep func(string) bool) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for _, l := range lines {
		if !strings.HasPrefix(l, "- ") {
			b.WriteString(l)
			continue
		}
		head, _, _ := strings.Cut(l, "):")
		_, id, _ := cutLast(head, "(")
		if x := byID[id]; x != nil {
			b.WriteString(SummaryLine(x) + "\n")
		} else if keep(l) {
			b.WriteString(l)
		}
	}
	return b.String()
}

func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// rewrite replaces the file at path with what change makes of it, if it
// exists and changes.
func rewrite(path string, change func(string) string) error {
	old, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return writeIfChanged(path, change(string(old)))
}
