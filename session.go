package recall

import (
	"context"
	"time"
)

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

	// Implicit is set on the result of EndSession when the session had
	// never been started and was recorded by the end itself. Not stored.
	Implicit bool `json:"implicit,omitempty"`
	// PinID and PinCreated are set on the result of an end with a pin: the
	// memory pinned, and whether the pin created it (else it pinned the
	// existing memory the pin named). Not stored.
	PinID      string `json:"pin_id,omitempty"`
	PinCreated bool   `json:"pin_created,omitempty"`
}

// SessionEnd captures a finished session (seed 001's intake valve).
type SessionEnd struct {
	ID      string `json:"id"`
	Summary string `json:"summary"`
	Learned string `json:"learned,omitempty"`
	// Pin names a memory to pin: an existing one whose key it is (or whose
	// key is its slug), else a new core memory with this title.
	Pin string `json:"pin,omitempty"`
}

// SessionStartReport says what the heartbeat did when a session started.
type SessionStartReport struct {
	Session  *Session `json:"session"`
	Evicted  []string `json:"evicted,omitempty"`  // ids of sessions moved to cold storage
	Swept    int      `json:"swept,omitempty"`    // observations removed by a retention sweep
	Problems []string `json:"problems,omitempty"` // integrity and staleness findings
	Context  string   `json:"context"`            // the bootstrap context to show the agent
}

// SessionService runs the session lifecycle.
type SessionService interface {
	// StartSession records s, runs the heartbeat and returns the bootstrap
	// context. A failing housekeeping step is reported, never fatal. An
	// empty id is named and a zero StartedAt means now; a known session
	// becomes hot again and keeps its first start time. Hot sessions
	// beyond the newest HotSessions besides s (by start time) turn cold
	// and are listed in Evicted.
	StartSession(ctx context.Context, s *Session) (*SessionStartReport, error)
	// EndSession stores the summary of a session. A session that was never
	// started (or an empty id) is recorded as started now, with Implicit
	// set on the result, so that the summary is never lost. An empty
	// summary or learned keeps the one stored. A pin becomes a pinned
	// memory titled Pin holding Learned (else Summary). Returns ECONFLICT,
	// writing nothing, when the pin title is already pinned (titles compare
	// ignoring case).
	EndSession(ctx context.Context, end SessionEnd) (*Session, error)
	// FindSessions returns sessions, newest start first; limit 0 means all.
	FindSessions(ctx context.Context, limit int) ([]*Session, error)
}
