package recall

import "context"

// MaintainPlan is what maintenance proposes (seed 000): a pure function of
// the store, the managed files, the clock and the config.
type MaintainPlan struct {
	WorkingWords         int                 `json:"working_words"`
	Target               int                 `json:"target"`
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
}

// MaintainFinding is a secondary check's result.
type MaintainFinding struct {
	Kind    string   `json:"kind"` // stale, contradiction, open_loop, daily_log, anchor
	IDs     []string `json:"ids,omitempty"`
	File    string   `json:"file,omitempty"`
	Message string   `json:"message"`
	Actions []string `json:"actions,omitempty"`
}

// Maintainer plans maintenance without changing anything.
type Maintainer interface {
	Plan(ctx context.Context) (*MaintainPlan, error)
}
