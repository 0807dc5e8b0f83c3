package maintain

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/lazyre"
)

// Paths the checks look at, relative to the project root.
const (
	openLoopFile   = "memory/registers/open-loops.md"
	dailyDir       = "memory/daily/"
	dailyArchive   = "memory/archive/daily/"
	dailyAfterDays = 30
)

// stale finds register entries not reviewed in 30+ days. Snoozed and
// superseded entries are left alone: the first were put off on purpose,
// the second are being cleaned up.
func stale(states []state, unit string, now time.Time) []recall.MaintainFinding {
	var out []recall.MaintainFinding
	for _, s := range states {
		if s.Tier != recall.TierRegister || s.status == recall.StatusSuperseded {
			continue
		}
		if s.snoozed != nil && s.snoozed.After(now) {
			continue
		}
		days := recall.DaysSince(s.reviewedAt, now)
		if days < recall.StaleAfterDays {
			continue
		}
		c := candidate(s, unit, now)
		c.Action = ActVerify
		out = append(out, recall.MaintainFinding{
			Kind: recall.FindingStale, IDs: []string{s.ID}, File: s.File,
			Message: fmt.Sprintf("not reviewed in %d days", days),
			Actions: []string{ActVerify, ActUpdate, ActArchive}, Entries: []recall.MaintainCandidate{c},
		})
	}
	return out
}

var (
	dueRE      = lazyre.New(`(?i)\bdue:?\s*(\d{4}-\d{2}-\d{2})\b`)
	resolvedRE = lazyre.New(`^\s*\[[xX]\]`)
	dailyRE    = lazyre.New(`^(\d{4}-\d{2}-\d{2})\.md$`)
)

// openLoops finds items of memory/registers/open-loops.md that are
// resolved ("[x]") or past due ("due: YYYY-MM-DD" before today).
func openLoops(states []state, unit string, now time.Time) []recall.MaintainFinding {
	today := now.UTC().Format(time.DateOnly)
	var out []recall.MaintainFinding
	for _, s := range states {
		if s.File != openLoopFile {
			continue
		}
		var msg string
		actions := []string{ActArchive, ActKeep}
		if resolvedRE().MatchString(s.Text) {
			msg = "resolved"
		} else if m := dueRE().FindStringSubmatch(s.Text); m != nil && m[1] < today {
			msg = "past due (due " + m[1] + ")"
			actions = []string{ActKeep, ActSnooze, ActArchive}
		} else {
			continue
		}
		c := candidate(s, unit, now)
		c.Action = actions[0]
		out = append(out, recall.MaintainFinding{
			Kind: recall.FindingOpenLoop, IDs: []string{s.ID}, File: s.File, Message: msg,
			Actions: actions, Entries: []recall.MaintainCandidate{c},
		})
	}
	return out
}

// dailyLogs finds daily logs (memory/daily/YYYY-MM-DD.md) older than 30
// days and suggests moving them under memory/archive/daily/.
func dailyLogs(paths []string, now time.Time) []recall.MaintainFinding {
	sorted := append([]string(nil), paths...)
	sort.Strings(sorted)
	var out []recall.MaintainFinding
	for _, p := range sorted {
		m := dailyRE().FindStringSubmatch(path.Base(p))
		if m == nil || !strings.HasPrefix(p, dailyDir) {
			continue
		}
		day, err := time.Parse(time.DateOnly, m[1])
		if err != nil {
			continue
		}
		age := int(now.Sub(day).Hours() / 24)
		if age <= dailyAfterDays {
			continue
		}
		out = append(out, recall.MaintainFinding{
			Kind: recall.FindingDailyLog, File: p,
			Message: fmt.Sprintf("%d days old: move it to %s", age, dailyArchive+path.Base(p)),
			Actions: []string{ActArchive},
		})
	}
	return out
}

// anchors flags memories whose anchored files changed or disappeared since
// they were anchored or last reviewed (code-aware staleness), and those
// whose anchors cannot be checked (problems), which only an update or an
// archive resolves.
func anchors(ms []*recall.Memory, hashes, problems map[string]string, entries []recall.ManagedEntry) []recall.MaintainFinding {
	where := map[string]recall.ManagedEntry{}
	for _, e := range entries {
		where[e.ID] = e
	}
	sorted := append([]*recall.Memory(nil), ms...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	var out []recall.MaintainFinding
	for _, m := range sorted {
		for _, a := range m.Anchors {
			cur, known := hashes[a.Path]
			problem := problems[a.Path]
			if problem == "" && (!known || cur == a.Hash) {
				continue
			}
			msg := a.Path + " changed since the memory was last reviewed"
			actions := []string{ActVerify, ActUpdate, ActArchive}
			switch {
			case problem != "":
				msg = a.Path + " cannot be checked: " + problem + "; anchor a file inside the project or archive the memory"
				actions = []string{ActUpdate, ActArchive}
			case cur == "":
				msg = a.Path + " is gone since the memory was last reviewed"
			}
			e := where[m.ID]
			text := e.Text
			if text == "" {
				text = firstLine(m)
			}
			out = append(out, recall.MaintainFinding{
				Kind: recall.FindingAnchor, IDs: []string{m.ID}, File: a.Path, Message: msg,
				Actions: actions,
				Entries: []recall.MaintainCandidate{{ID: m.ID, File: e.File, Line: e.Line, Text: text,
					Tier: m.Tier, Status: m.Status, ReviewedAt: m.ReviewedAt, Action: actions[0]}},
			})
		}
	}
	return out
}

// firstLine names a memory that is not in a managed file.
func firstLine(m *recall.Memory) string {
	if m.Title != "" {
		return m.Title
	}
	line, _, _ := strings.Cut(strings.TrimSpace(m.Content), "\n")
	return line
}
