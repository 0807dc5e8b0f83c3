package maintain

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/prose"
)

// Display names a file as seed 000's reports do: paths under memory/ lose
// that prefix (registers/tech-stack.md).
func Display(p string) string { return strings.TrimPrefix(p, "memory/") }

// title prints a report title underlined to its width.
func title(w io.Writer, t string) {
	fmt.Fprintf(w, "%s\n%s\n\n", t, strings.Repeat("━", utf8.RuneCountInString(t)))
}

// unitName is "words" or "tokens" for a count.
func unitName(unit string, n int) string {
	if unit == UnitTokens {
		return prose.Plural(n, "token", "tokens")
	}
	return prose.Plural(n, "word", "words")
}

// CandidateCount is how many entries the report numbers.
func CandidateCount(p *recall.MaintainPlan) int {
	return len(p.PressureCandidates) + len(p.SupersededCandidates)
}

// WriteReport prints the plan in seed 000's presentation format: "all
// clear", or every candidate numbered with its reason and choices.
func WriteReport(w io.Writer, p *recall.MaintainPlan) {
	n := CandidateCount(p)
	if n == 0 {
		// The seed underlines this title one character short; kept as is.
		fmt.Fprintf(w, "recall-maintain — all clear\n%s\n\n", strings.Repeat("━", 26))
		if p.NeedToFree > 0 {
			fmt.Fprintf(w, "Working memory: %s (target: %d, over by %d)\n", unitName(p.Unit, p.WorkingWords), p.Target, p.NeedToFree)
			fmt.Fprintf(w, "No pressure candidates: every working entry is pinned or snoozed.\n")
		} else {
			fmt.Fprintf(w, "Working memory: %s (target: %d) - under budget\n", unitName(p.Unit, p.WorkingWords), p.Target)
		}
		fmt.Fprintf(w, "No superseded entries pending cleanup.\nNo action needed.\n\n")
		return
	}
	title(w, "recall-maintain — "+prose.Plural(n, "candidate", "candidates"))
	if p.NeedToFree > 0 {
		fmt.Fprintf(w, "Working memory: %s (target: %d, over by %d)\n\n", unitName(p.Unit, p.WorkingWords), p.Target, p.NeedToFree)
		fmt.Fprintf(w, "Pressure candidates (need to free %s):\n\n", unitName(p.Unit, p.NeedToFree))
	} else {
		fmt.Fprintf(w, "Working memory: %s (target: %d) - under budget\n\n", unitName(p.Unit, p.WorkingWords), p.Target)
	}
	i := 0
	for _, c := range p.PressureCandidates {
		i++
		WritePressureCandidate(w, i, p.Unit, c)
	}
	if len(p.SupersededCandidates) > 0 {
		fmt.Fprintf(w, "Superseded cleanup:\n\n")
	}
	for _, c := range p.SupersededCandidates {
		i++
		WriteSupersededCandidate(w, i, c)
	}
}

// WritePressureCandidate prints one numbered pressure candidate.
func WritePressureCandidate(w io.Writer, i int, unit string, c recall.MaintainCandidate) {
	reviewed := "never reviewed"
	if c.ReviewedAt != nil {
		reviewed = "last reviewed " + prose.Plural(c.DaysSinceReview, "day", "days") + " ago"
	}
	fmt.Fprintf(w, "%d. [%s] %s, %s\n", i, Display(c.File), unitName(unit, c.Words), reviewed)
	fmt.Fprintf(w, "   %q\n", c.Text)
	fmt.Fprintf(w, "   → [k]eep / [p]in / [s]nooze / [d]emote / [a]rchive / [m]ark superseded\n\n")
}

// WriteSupersededCandidate prints one numbered superseded entry.
func WriteSupersededCandidate(w io.Writer, i int, c recall.MaintainCandidate) {
	fmt.Fprintf(w, "%d. [%s] status: superseded\n", i, Display(c.File))
	fmt.Fprintf(w, "   %q\n", c.Text)
	fmt.Fprintf(w, "   → [a]rchive (recommended) / [k]eep\n\n")
}

// Findings returns the plan's findings of one kind.
func Findings(p *recall.MaintainPlan, kind string) []recall.MaintainFinding {
	var out []recall.MaintainFinding
	for _, f := range p.Findings {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

// reviewDate formats a last review for the stale list.
func reviewDate(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return t.UTC().Format(time.DateOnly)
}

// WriteChecks prints the secondary checks (seed 000 step 7): stale
// entries in the seed's format, then contradictions, open loops, daily
// logs and changed anchored files in the same style.
func WriteChecks(w io.Writer, p *recall.MaintainPlan) {
	if len(p.Findings) == 0 {
		fmt.Fprintf(w, "Secondary checks: nothing to review.\n\n")
		return
	}
	if fs := Findings(p, recall.FindingStale); len(fs) > 0 {
		fmt.Fprintf(w, "Stale entries (not reviewed in 30+ days):\n")
		for i, f := range fs {
			c := f.Entries[0]
			fmt.Fprintf(w, "  %d. [%s] Last reviewed: %s\n", i+1, Display(c.File), reviewDate(c.ReviewedAt))
			fmt.Fprintf(w, "     %q ^%s\n", c.Text, c.ID)
			fmt.Fprintf(w, "     → [v]erify (update last_reviewed_at) / [u]pdate / [a]rchive\n")
		}
		fmt.Fprintln(w)
	}
	if fs := Findings(p, recall.FindingContradiction); len(fs) > 0 {
		fmt.Fprintf(w, "Contradictions:\n")
		for i, f := range fs {
			fmt.Fprintf(w, "  %d. %s\n", i+1, f.Message)
			for _, c := range f.Entries {
				fmt.Fprintf(w, "     [%s] %q ^%s\n", Display(c.File), c.Text, c.ID)
			}
			fmt.Fprintf(w, "     → [m]ark one superseded / [u]pdate / [k]eep both\n")
		}
		fmt.Fprintln(w)
	}
	if fs := Findings(p, recall.FindingOpenLoop); len(fs) > 0 {
		fmt.Fprintf(w, "Open loops:\n")
		for i, f := range fs {
			c := f.Entries[0]
			fmt.Fprintf(w, "  %d. [%s] %s\n", i+1, Display(c.File), f.Message)
			fmt.Fprintf(w, "     %q ^%s\n", c.Text, c.ID)
			if f.Actions[0] == ActArchive {
				fmt.Fprintf(w, "     → [a]rchive (recommended) / [k]eep\n")
			} else {
				fmt.Fprintf(w, "     → [k]eep / [s]nooze / [a]rchive\n")
			}
		}
		fmt.Fprintln(w)
	}
	if fs := Findings(p, recall.FindingDailyLog); len(fs) > 0 {
		fmt.Fprintf(w, "Daily logs older than 30 days (suggested for memory/archive/daily/):\n")
		for i, f := range fs {
			fmt.Fprintf(w, "  %d. %s: %s\n", i+1, f.File, f.Message)
		}
		fmt.Fprintln(w)
	}
	if fs := Findings(p, recall.FindingAnchor); len(fs) > 0 {
		fmt.Fprintf(w, "Anchored files changed:\n")
		for i, f := range fs {
			c := f.Entries[0]
			where := "store"
			if c.File != "" {
				where = Display(c.File)
			}
			fmt.Fprintf(w, "  %d. [%s] %s\n", i+1, where, f.Message)
			fmt.Fprintf(w, "     %q ^%s\n", c.Text, c.ID)
			fmt.Fprintf(w, "     → [v]erify (update last_reviewed_at) / [u]pdate / [a]rchive\n")
		}
		fmt.Fprintln(w)
	}
}

// Summary counts what a maintenance run did (seed 000 step 8).
type Summary struct {
	Unit          string
	Before, After int
	Target        int
	Kept          int
	Pinned        int
	Snoozed       int
	SnoozedUntil  time.Time
	Demoted       int
	Archived      int
	Superseded    int
	Updated       int
	StaleVerified int
	Contradicts   int
	OpenLoops     int
	DailyLogs     int
	Anchors       int
	// MetadataFile says whether memory/.recall/metadata.json is kept;
	// Entries counts its entries, or the store's managed entries.
	MetadataFile bool
	Entries      int
}

// Count adds one applied action to the summary.
func (s *Summary) Count(action string) {
	switch action {
	case ActKeep:
		s.Kept++
	case ActPin:
		s.Pinned++
	case ActSnooze:
		s.Snoozed++
	case ActDemote:
		s.Demoted++
	case ActArchive:
		s.Archived++
	case ActSupersede:
		s.Superseded++
	case ActUpdate:
		s.Updated++
	}
}

// SetChecks copies the secondary-check counts from a plan.
func (s *Summary) SetChecks(p *recall.MaintainPlan) {
	s.Contradicts = len(Findings(p, recall.FindingContradiction))
	s.OpenLoops = len(Findings(p, recall.FindingOpenLoop))
	s.DailyLogs = len(Findings(p, recall.FindingDailyLog))
	s.Anchors = len(Findings(p, recall.FindingAnchor))
}

// WriteSummary prints seed 000's closing summary, before and after.
func WriteSummary(w io.Writer, s *Summary) {
	unit := s.Unit
	if unit == "" {
		unit = UnitWords
	}
	title(w, "recall-maintain — complete")
	fmt.Fprintf(w, "Working memory: %d -> %d %s (target: %d)\n\n", s.Before, s.After, unit, s.Target)
	fmt.Fprintf(w, "Actions taken:\n")
	fmt.Fprintf(w, "  Kept (reviewed): %d\n", s.Kept)
	fmt.Fprintf(w, "  Pinned: %d\n", s.Pinned)
	if s.Snoozed > 0 {
		fmt.Fprintf(w, "  Snoozed: %d (until %s)\n", s.Snoozed, s.SnoozedUntil.UTC().Format(time.DateOnly))
	} else {
		fmt.Fprintf(w, "  Snoozed: 0\n")
	}
	fmt.Fprintf(w, "  Demoted to _inbox.md: %d\n", s.Demoted)
	fmt.Fprintf(w, "  Archived: %d\n", s.Archived)
	fmt.Fprintf(w, "  Marked superseded: %d\n", s.Superseded)
	if s.Updated > 0 {
		fmt.Fprintf(w, "  Updated: %d\n", s.Updated)
	}
	fmt.Fprintf(w, "\nSecondary checks:\n")
	fmt.Fprintf(w, "  Stale entries verified: %d\n", s.StaleVerified)
	fmt.Fprintf(w, "  Contradictions found: %d\n", s.Contradicts)
	fmt.Fprintf(w, "  Open loops reviewed: %d\n", s.OpenLoops)
	fmt.Fprintf(w, "  Daily logs to archive: %d\n", s.DailyLogs)
	fmt.Fprintf(w, "  Anchored files changed: %d\n", s.Anchors)
	if s.MetadataFile {
		fmt.Fprintf(w, "\nMetadata: %d entries in memory/.recall/metadata.json\n", s.Entries)
	} else {
		fmt.Fprintf(w, "\nMetadata: %d entries in the store\n", s.Entries)
	}
}
