package recall

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Purge targets.
const (
	PurgeObservations = "observations"
	PurgeMemories     = "memories"
)

// Purge search rules, narrowest first: how the words of --search must
// occur in an entry for it to match.
const (
	MatchWords     = "words"     // every word of the query as a whole word
	MatchPrefix    = "prefix"    // every word as the start of a word ("AKIA" finds AKIAIOSFODNN7EXAMPLE)
	MatchSubstring = "substring" // the query as typed, anywhere, ignoring ASCII case
)

// MatchRules lists the rules narrowest first.
var MatchRules = []string{MatchWords, MatchPrefix, MatchSubstring}

// PurgeCriteria selects what a purge removes (seed 003). Set fields combine
// with AND; at least one must be set.
type PurgeCriteria struct {
	Before        *time.Time // observations: at < Before; memories: created before
	Project       string
	Session       string // observations only
	ObservationID int64  // 0 means not set
	MemoryID      string
	Type          string
	OlderThanDays *int       // requires Type; resolved into Cutoff
	Cutoff        *time.Time // set by the policy from OlderThanDays and the clock
	Search        string     // every word must match; never logged, it may be the secret
	Match         string     // how Search matches: MatchWords (default), MatchPrefix or MatchSubstring
	Memories      bool       // purge memories and all their versions instead of observations
}

// MatchRule is the search rule in force: Match, or MatchWords when unset.
func (c PurgeCriteria) MatchRule() string {
	if c.Match == "" {
		return MatchWords
	}
	return c.Match
}

// Target names what the criteria purge.
func (c PurgeCriteria) Target() string {
	if c.Memories {
		return PurgeMemories
	}
	return PurgeObservations
}

// IsEmpty reports whether no filter is set.
func (c PurgeCriteria) IsEmpty() bool {
	return c.Before == nil && c.Project == "" && c.Session == "" && c.ObservationID == 0 &&
		c.MemoryID == "" && c.Type == "" && c.OlderThanDays == nil && c.Search == ""
}

// Validate refuses criteria that select nothing or that would silently
// ignore one of their filters, which for a purge means deleting more than
// was asked. OlderThanDays must have been resolved into Cutoff.
func (c PurgeCriteria) Validate() error {
	switch {
	case c.IsEmpty():
		return Errorf(EINVALID, "Purge needs at least one filter: --before, --project, --session, --id, --type (with --older-than) or --search. To see what matches, run it without --confirm.")
	case c.OlderThanDays != nil && c.Type == "":
		return Errorf(EINVALID, "--older-than needs --type: for example --type file_read --older-than 90; use --before DATE to cut every type at a date.")
	case c.OlderThanDays != nil && *c.OlderThanDays < 0:
		return Errorf(EINVALID, "--older-than must be 0 or more days (0 matches every age).")
	case c.OlderThanDays != nil && c.Cutoff == nil:
		return Errorf(EINVALID, "--older-than was not turned into a cutoff time: resolve the criteria against the clock first.")
	case c.Memories && c.ObservationID != 0:
		return Errorf(EINVALID, "--id %d is an observation number but --memories purges memories: drop --memories, or give a memory id (tr…).", c.ObservationID)
	case c.Memories && c.Session != "":
		return Errorf(EINVALID, "--session applies to observations; memories have no session. Drop --memories or --session.")
	case !c.Memories && c.MemoryID != "":
		return Errorf(EINVALID, "--id %s is a memory id: add --memories to purge memories.", c.MemoryID)
	case c.Search != "" && strings.TrimSpace(c.Search) == "":
		return Errorf(EINVALID, "--search needs some words to match.")
	case c.Match != "" && c.Match != MatchWords && c.Match != MatchPrefix && c.Match != MatchSubstring:
		return Errorf(EINVALID, "Invalid --match %q: use words, prefix or substring.", c.Match)
	case c.Match != "" && c.Search == "":
		return Errorf(EINVALID, "--match says how --search matches: give --search too.")
	}
	return nil
}

// Describe renders the criteria as flags for logs and the audit record. The
// search text is left out: it is often the very secret being purged.
func (c PurgeCriteria) Describe() string {
	var parts []string
	add := func(flag, v string) { parts = append(parts, fmt.Sprintf("--%s %q", flag, v)) }
	if c.Before != nil {
		add("before", c.Before.UTC().Format(time.RFC3339))
	}
	if c.Project != "" {
		add("project", c.Project)
	}
	if c.Session != "" {
		add("session", c.Session)
	}
	if c.ObservationID != 0 {
		add("id", fmt.Sprint(c.ObservationID))
	}
	if c.MemoryID != "" {
		add("id", c.MemoryID)
	}
	if c.Type != "" {
		add("type", c.Type)
	}
	if c.OlderThanDays != nil {
		parts = append(parts, fmt.Sprintf("--older-than %d", *c.OlderThanDays))
	}
	if c.Search != "" {
		parts = append(parts, "--search (withheld)")
	}
	if c.Match != "" && c.Match != MatchWords {
		parts = append(parts, "--match "+c.Match)
	}
	if c.Memories {
		parts = append(parts, "--memories")
	}
	return strings.Join(parts, " ")
}

// PurgeItem is one match shown before a purge, so a person can check what
// would go (seed 003, Q2).
type PurgeItem struct {
	ID       string    `json:"id"` // observation number or memory id
	At       time.Time `json:"at"`
	Type     string    `json:"type,omitempty"`
	Session  string    `json:"session,omitempty"`
	Project  string    `json:"project,omitempty"`
	Text     string    `json:"text"` // a one-line excerpt
	Versions int       `json:"versions,omitempty"`
	Deleted  bool      `json:"deleted,omitempty"` // a memory that only survives in its history
	Rule     string    `json:"rule,omitempty"`    // with --search: the narrowest rule the entry matches
}

// PurgeReport says what a purge matched or removed.
type PurgeReport struct {
	DryRun       bool   `json:"dry_run"`
	Target       string `json:"target"`
	Criteria     string `json:"criteria"`
	Observations int    `json:"observations"`
	Memories     int    `json:"memories"`
	Versions     int    `json:"versions"`
	Sessions     int    `json:"sessions"`
	// Copies of the purged text elsewhere: rollups built from a purged
	// entry or holding the search text (deleted, their other sources left
	// to be rolled up again), and sessions whose summary or learned text
	// holds it (that text cleared).
	Rollups      int `json:"rollups"`
	SessionTexts int `json:"session_texts"`
	// Wider, when --search matched nothing, says what a wider rule would
	// match, so that a purge never quietly misses what the user typed.
	Wider  *PurgeWider `json:"wider,omitempty"`
	Sample []PurgeItem `json:"sample,omitempty"`
	Upkeep *Upkeep     `json:"upkeep,omitempty"`
}

// Matched is the number of entries the purge matches: observations, or
// memories (live or deleted) with their history.
func (r *PurgeReport) Matched() int {
	if r.Target == PurgeMemories {
		return r.Memories
	}
	return r.Observations
}

// PurgeWider is what the next wider --match rule would match.
type PurgeWider struct {
	Match   string `json:"match"`
	Matches int    `json:"matches"`
}

// Copies is the number of copies that go with the matches: rollups and
// session texts.
func (r *PurgeReport) Copies() int { return r.Rollups + r.SessionTexts }

// Upkeep is the storage maintenance run after deletions.
type Upkeep struct {
	SecureDelete bool   `json:"secure_delete"`
	FTS          string `json:"fts,omitempty"`      // optimize or rebuild
	FreedPages   int64  `json:"freed_pages"`        // pages returned to the file system by incremental vacuum
	Vacuumed     bool   `json:"vacuumed,omitempty"` // the file was rewritten (purges), leaving no free space behind
	WALTruncated bool   `json:"wal_truncated"`      // false when another process kept the WAL busy
}

// Purger removes data on request, completely.
type Purger interface {
	// PlanPurge counts what Purge would remove and returns up to sample of
	// the first matches, changing nothing. Returns EINVALID when no filter
	// is set or the filters do not apply to the target.
	PlanPurge(ctx context.Context, c PurgeCriteria, sample int) (*PurgeReport, error)

	// Purge deletes the matches with secure deletion, cleans up what they
	// leave behind, compacts the indexes and files, and records an audit
	// entry without content. Returns EINVALID like PlanPurge. Nothing of a
	// match survives anywhere the store can show it: a memory goes with
	// every version (a deleted memory matches by its history), its vectors
	// and full-text entries; rollups built from or holding the matched
	// text go; session texts holding it are cleared. Landmarks go too.
	Purge(ctx context.Context, c PurgeCriteria) (*PurgeReport, error)
}

// Until is the effective upper time bound: the earlier of Before and
// Cutoff, or nil when neither is set.
func (c PurgeCriteria) Until() *time.Time {
	switch {
	case c.Before == nil:
		return c.Cutoff
	case c.Cutoff == nil || c.Before.Before(*c.Cutoff):
		return c.Before
	default:
		return c.Cutoff
	}
}
