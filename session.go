package recall

import "time"

// Session is one agent session (seed 001): the last few are hot, older ones
// are evicted to cold storage leaving a one-line summary.
type Session struct {
	ID        string     `json:"id"`
	Project   string     `json:"project,omitempty"`
	Agent     string     `json:"agent,omitempty"`
	StartedAt time.Time  `json:"started_at"`
	EndedAt   *time.Time `json:"ended_at,omitempty"`
	Summary   string     `json:"summary,omitempty"`
	Learned   string     `json:"learned,omitempty"`
	State     string     `json:"state"` // hot, cold
}
