// Package journal runs the session lifecycle of seed 001 around a session
// store: the heartbeat on start (evict, sweep, check, bootstrap context),
// capture on end, and the markdown views people and agents read:
// memory/RECENT.md (hot sessions), memory/SUMMARY.md (one line per evicted
// session, append-only), memory/archive/YYYY-MM.md (evicted sessions in
// full) and memory/PINNED.md (core memory).
package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// File names under the memory directory.
const (
	RecentFile  = "RECENT.md"
	SummaryFile = "SUMMARY.md"
	PinnedFile  = "PINNED.md"
	ArchiveDir  = "archive"
)

// dateLayout is seed 001's "%B %d, %Y".
const dateLayout = "January 02, 2006"

// sessionHeader starts every session block; readers split on "## Session:".
func sessionHeader(s *recall.Session) string {
	return fmt.Sprintf("## Session: %s — %s", s.StartedAt.UTC().Format(dateLayout), s.ID)
}

// sessionBlock renders one session in full. Summary and learned are kept
// on one line each: the tier files' parser reads list items under
// memory/archive/ as entries, and a session block must never look like one.
func sessionBlock(s *recall.Session) string {
	var b strings.Builder
	b.WriteString(sessionHeader(s) + "\n\n")
	if s.Project != "" {
		fmt.Fprintf(&b, "**Project:** %s\n", s.Project)
	}
	if s.EndedAt != nil {
		fmt.Fprintf(&b, "**Ended:** %s\n", s.EndedAt.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(&b, "**Summary:** %s\n", oneLine(orDash(s.Summary)))
	if s.Learned != "" {
		fmt.Fprintf(&b, "**Learned:** %s\n", oneLine(s.Learned))
	}
	return b.String()
}

// RenderRecent renders RECENT.md from hot sessions, newest first. Sessions
// with nothing captured yet (no summary) are left out.
func RenderRecent(hot []*recall.Session) string {
	var b strings.Builder
	b.WriteString("# Recent sessions\n\n<!-- Managed by recall from the store: edits are overwritten. Newest first. -->\n")
	for _, s := range hot {
		if s.Summary == "" && s.Learned == "" {
			continue
		}
		b.WriteString("\n" + sessionBlock(s))
	}
	return b.String()
}

// SummaryLine is a session's line in SUMMARY.md, the warm index.
func SummaryLine(s *recall.Session) string {
	return fmt.Sprintf("- %s (%s): %s", s.StartedAt.UTC().Format(dateLayout), s.ID, oneLine(orDash(s.Summary)))
}

// RenderPinned renders PINNED.md from pinned memories.
func RenderPinned(pins []*recall.Memory) string {
	var b strings.Builder
	b.WriteString("# Pinned\n\n<!-- Core memory, never evicted. Managed by recall from the store: edits are overwritten. -->\n")
	for _, m := range pins {
		title := m.Title
		if title == "" {
			title = m.ID
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", title, strings.TrimSpace(m.Content))
	}
	return b.String()
}

// ArchivePath is the cold file for a session: archive/YYYY-MM.md by the
// month the session started.
func ArchivePath(dir string, s *recall.Session) string {
	return filepath.Join(dir, ArchiveDir, s.StartedAt.UTC().Format("2006-01")+".md")
}

// appendUnique appends text to the file at path unless the file already
// holds marker, creating it with head first. The result is written to a
// temporary file and renamed, so a crash leaves the old or the new file.
func appendUnique(path, head, marker, text string) (bool, error) {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return false, err
	}
	if strings.Contains(string(old), marker) {
		return false, nil
	}
	body := string(old)
	if body == "" {
		body = head
	}
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return true, recall.WriteFileAtomic(path, []byte(body+text), 0o600)
}

// writeIfChanged writes path only when its content differs, so that an
// unchanged view keeps its modification time.
func writeIfChanged(path, text string) error {
	if old, err := os.ReadFile(path); err == nil && string(old) == text {
		return nil
	}
	return recall.WriteFileAtomic(path, []byte(text), 0o600)
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
