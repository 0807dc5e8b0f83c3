package recall

import (
	"context"
	"encoding/json"
	"time"
)

// Observation types recorded by hooks (seed 003). The set is open-ended:
// any slug is a valid type.
const (
	ObsUserPrompt    = "user_prompt"
	ObsCommand       = "command"
	ObsCommandError  = "command_error"
	ObsFileRead      = "file_read"
	ObsFileWrite     = "file_write"
	ObsFileEdit      = "file_edit"
	ObsSearch        = "search"
	ObsMCPCall       = "mcp_call"
	ObsSessionStart  = "session_start"
	ObsSessionEnd    = "session_end"
	ObsAgentThinking = "agent_thinking"
)

// Observation is one raw event from an agent session: high volume, not
// curated, searchable, rolled up and swept by retention policy.
type Observation struct {
	ID       int64           `json:"id,omitempty"`
	At       time.Time       `json:"at"`
	Type     string          `json:"type"`
	Key      string          `json:"key,omitempty"` // what it is about (e.g. "editor"), so rollups can group values of one thing
	Session  string          `json:"session,omitempty"`
	Project  string          `json:"project,omitempty"`
	Tool     string          `json:"tool,omitempty"`
	File     string          `json:"file,omitempty"`
	Content  string          `json:"content"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Status   string          `json:"status,omitempty"` // active or compacted (rolled up)
	Pinned   bool            `json:"pinned,omitempty"` // a landmark: never swept
}

// ObservationFilter selects observations. Zero fields do not filter.
type ObservationFilter struct {
	ID      *int64
	Type    *string
	Key     *string
	Session *string
	Project *string
	Status  *string
	Since   *time.Time // At >= Since
	Until   *time.Time // At < Until
	Search  string     // full-text query over content
	Desc    bool       // newest first (default oldest first)
	Offset  int
	Limit   int
}

// ObservationService records and reads observations.
type ObservationService interface {
	// RecordObservations writes all observations in one transaction and
	// sets their ids. Returns EINVALID for a missing or malformed type.
	RecordObservations(ctx context.Context, obs []*Observation) error

	// FindObservations returns the observations matching filter and the
	// total count ignoring Offset and Limit.
	FindObservations(ctx context.Context, filter ObservationFilter) ([]*Observation, int, error)
}

// ObservationPinner marks landmark observations (seed 003, Q1), which
// retention sweeps never remove; an explicit purge still does.
type ObservationPinner interface {
	// PinObservation sets or clears the landmark flag. Returns ENOTFOUND
	// for an unknown id.
	PinObservation(ctx context.Context, id int64, pinned bool) error
}
