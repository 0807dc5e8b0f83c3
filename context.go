package recall

import (
	"context"
	"time"
)

// ContextRequest asks for the context an agent should see, packed into a
// token budget.
type ContextRequest struct {
	Query  string       // optional: adds the best hits for this query
	Budget int          // tokens; the pack never exceeds it
	Now    time.Time    // reference time; zero means the clock
	Filter MemoryFilter // narrows the query hits
}

// ContextPack is assembled context: sections in priority order (pinned core,
// working set, query hits, recent sessions, rollups), deduplicated.
type ContextPack struct {
	Text     string           `json:"text"`
	Tokens   int              `json:"tokens"`
	Budget   int              `json:"budget"`
	Sections []ContextSection `json:"sections"`
	Dropped  int              `json:"dropped"` // items that did not fit
}

// ContextSection is one part of a pack with the tokens it used.
type ContextSection struct {
	Name   string        `json:"name"`
	Tokens int           `json:"tokens"`
	Items  []ContextItem `json:"items"`
}

// ContextItem is one memory, rollup or session in a pack.
type ContextItem struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"` // memory, rollup, session, observation
	Title  string `json:"title,omitempty"`
	Text   string `json:"text"`
	Tokens int    `json:"tokens"`
}

// ContextBuilder assembles context packs. Returns EINVALID for a budget
// that is not positive.
type ContextBuilder interface {
	BuildContext(ctx context.Context, req ContextRequest) (*ContextPack, error)
}
