package recall

import (
	"context"
	"time"
)

// MaintainPlan is what maintenance proposes (seed 000): a pure function of
// the store, the managed files, the clock and the config.
type MaintainPlan struct {
	WorkingWords         int                 `json:"working_words"` // in Unit
	Target               int                 `json:"target"`
	Unit                 string              `json:"unit"`         // words, or tokens with --budget-tokens
	NeedToFree           int                 `json:"need_to_free"` // working_words - target when over, else 0
	PressureCandidates   []MaintainCandidate `json:"pressure_candidates"`
	SupersededCandidates []MaintainCandidate `json:"superseded_candidates"`
	Findings             []MaintainFinding   `json:"findings,omitempty"` // stale, contradiction, open loop, daily log
}

// MaintainCandidate is an entry maintenance suggests acting on.
type MaintainCandidate struct {
	ID              string  `json:"id"`
	File            string  `json:"file"`
	Line            int     `json:"line"`
	Text            string  `json:"text"`
	Words           int     `json:"words"`
	DaysSinceReview int     `json:"days_since_review"`
	Score           float64 `json:"score"`
	Action          string  `json:"action"` // the recommended action
	Tier            string  `json:"tier,omitempty"`
	Status          string  `json:"status,omitempty"`
	Pinned          bool    `json:"pinned,omitempty"`
	// ReviewedAt is the last review; nil means never (counted as 365 days).
	ReviewedAt *time.Time `json:"reviewed_at,omitempty"`
}

// MaintainFinding is a secondary check's result.
type MaintainFinding struct {
	Kind    string   `json:"kind"` // stale, contradiction, open_loop, daily_log, anchor
	IDs     []string `json:"ids,omitempty"`
	File    string   `json:"file,omitempty"`
	Message string   `json:"message"`
	Actions []string `json:"actions,omitempty"`
	// Entries are the entries concerned: the stale entry, both sides of a
	// contradiction, the open loop, the anchored memory.
	Entries []MaintainCandidate `json:"entries,omitempty"`
}

// Kinds of MaintainFinding.
const (
	FindingStale         = "stale"
	FindingContradiction = "contradiction"
	FindingOpenLoop      = "open_loop"
	FindingDailyLog      = "daily_log"
	FindingAnchor        = "anchor"
)

// Maintainer plans maintenance without changing anything. Returns
// ECONFLICT when the managed files cannot be planned on (entries missing
// ids, or duplicate ids), with the message saying how to fix them.
type Maintainer interface {
	Plan(ctx context.Context) (*MaintainPlan, error)
}
