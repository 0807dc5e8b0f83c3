// Package maintain plans and describes the maintenance of the working set
// (seed 000): working-memory pressure against a budget, superseded cleanup,
// and the secondary checks (stale entries, contradictions, open loops,
// daily logs, changed anchored files). Planning is a pure function of its
// Input; applying a plan is the caller's job, with Effect giving the store
// change each action makes.
package maintain

import (
	"sort"
	"time"

	"github.com/recall-mem/recall"
)

// Units the budget is counted in.
const (
	UnitWords  = "words"
	UnitTokens = "tokens"
)

// Input is everything a plan depends on.
type Input struct {
	Entries []recall.ManagedEntry
	// Memories holds the store's memory for each entry id; an entry the
	// store does not know yet counts as reviewed now, unpinned and active.
	Memories map[string]*recall.Memory
	// Anchored are the active memories with anchors, and FileHashes the
	// current SHA-256 of each anchored path ("" when the file is gone).
	// FileProblems holds, instead of a hash, why a path could not be
	// checked: outside the project, not a regular file, too large.
	Anchored     []*recall.Memory
	FileHashes   map[string]string
	FileProblems map[string]string
	DailyLogs    []string // paths of memory/daily/*.md, relative to the root
	Now          time.Time
	Budget       int    // 0 means recall.DefaultBudgetWords
	Unit         string // UnitWords (default) or UnitTokens
}

// state is an entry joined with what the store says about it.
type state struct {
	recall.ManagedEntry
	pinned     bool
	status     string
	reviewedAt *time.Time
	snoozed    *time.Time
}

func (in *Input) states() []state {
	out := make([]state, 0, len(in.Entries))
	for _, e := range in.Entries {
		st := state{ManagedEntry: e, status: recall.StatusActive}
		if m := in.Memories[e.ID]; m != nil {
			st.pinned, st.status, st.reviewedAt, st.snoozed = m.Pinned, m.Status, m.ReviewedAt, m.SnoozedUntil
		} else {
			now := in.Now
			st.reviewedAt = &now
		}
		out = append(out, st)
	}
	return out
}

// Plan computes the maintenance plan.
func Plan(in Input) *recall.MaintainPlan {
	unit := in.Unit
	if unit == "" {
		unit = UnitWords
	}
	target := in.Budget
	if target <= 0 {
		target = recall.DefaultBudgetWords
	}
	states := in.states()
	p := &recall.MaintainPlan{Target: target, Unit: unit,
		PressureCandidates: []recall.MaintainCandidate{}, SupersededCandidates: []recall.MaintainCandidate{}}
	for _, s := range states {
		if s.Tier == recall.TierWorking {
			p.WorkingWords += Count(unit, s.Text)
		}
	}
	if p.WorkingWords > target {
		p.NeedToFree = p.WorkingWords - target
		p.PressureCandidates = pressure(states, unit, p.NeedToFree, in.Now)
	}
	for _, s := range states {
		if s.status == recall.StatusSuperseded && s.Tier != recall.TierArchive {
			c := candidate(s, unit, in.Now)
			c.Action = ActArchive
			p.SupersededCandidates = append(p.SupersededCandidates, c)
		}
	}
	p.Findings = append(p.Findings, stale(states, unit, in.Now)...)
	p.Findings = append(p.Findings, contradictions(states, unit, in.Now)...)
	p.Findings = append(p.Findings, openLoops(states, unit, in.Now)...)
	p.Findings = append(p.Findings, dailyLogs(in.DailyLogs, in.Now)...)
	p.Findings = append(p.Findings, anchors(in.Anchored, in.FileHashes, in.FileProblems, in.Entries)...)
	return p
}

func candidate(s state, unit string, now time.Time) recall.MaintainCandidate {
	words := Count(unit, s.Text)
	days := recall.DaysSince(s.reviewedAt, now)
	return recall.MaintainCandidate{
		ID: s.ID, File: s.File, Line: s.Line, Text: s.Text, Words: words,
		DaysSinceReview: days, Score: Score(words, days), Tier: s.Tier,
		Status: s.status, Pinned: s.pinned, ReviewedAt: s.reviewedAt,
	}
}

// Score is seed 000's pressure score: size first, staleness second.
func Score(words, daysSinceReview int) float64 {
	return 1.0*float64(words) + 0.1*float64(daysSinceReview)
}

// pressure picks the minimal set of working entries, highest score first,
// whose words add up to at least need. Pinned entries, entries snoozed
// into the future and superseded entries (cleaned up on their own) are
// never candidates.
func pressure(states []state, unit string, need int, now time.Time) []recall.MaintainCandidate {
	var pool []recall.MaintainCandidate
	for _, s := range states {
		if s.Tier != recall.TierWorking || s.pinned || s.status == recall.StatusSuperseded {
			continue
		}
		if s.snoozed != nil && s.snoozed.After(now) {
			continue
		}
		c := candidate(s, unit, now)
		c.Action = ActDemote
		pool = append(pool, c)
	}
	sort.SliceStable(pool, func(i, j int) bool { return pool[i].Score > pool[j].Score })
	freed := 0
	for i, c := range pool {
		if freed >= need {
			return pool[:i]
		}
		freed += c.Words
	}
	return pool
}
