package recall

import (
	"context"
	"encoding/json"
	"iter"
	"time"
)

// Tiers say where a memory lives in the working-set hierarchy (seed 000):
// working is loaded on every turn, register and archive sit behind it.
const (
	TierWorking  = "working"
	TierRegister = "register"
	TierArchive  = "archive"
)

// Statuses. Only active memories are searched by default.
const (
	StatusActive     = "active"
	StatusSuperseded = "superseded"
	StatusArchived   = "archived"
	StatusCompacted  = "compacted"
)

// Memory is one piece of curated knowledge: a fact, preference, decision,
// note, procedure or document.
type Memory struct {
	ID         string          `json:"id"`
	Key        string          `json:"key,omitempty"`
	Collection string          `json:"collection"`
	Type       string          `json:"type,omitempty"`
	Title      string          `json:"title,omitempty"`
	Content    string          `json:"content"`
	Tags       []string        `json:"tags,omitempty"`
	Category   string          `json:"category,omitempty"`
	Context    string          `json:"context,omitempty"`
	Related    []string        `json:"related,omitempty"`
	Project    string          `json:"project,omitempty"`
	Priority   string          `json:"priority,omitempty"`
	CreatedBy  string          `json:"created_by,omitempty"`
	Confidence float64         `json:"confidence"`
	Tier       string          `json:"tier"`
	Pinned     bool            `json:"pinned"`
	Status     string          `json:"status"`
	Anchors    []Anchor        `json:"anchors,omitempty"`
	Metadata   json.RawMessage `json:"metadata,omitempty"`

	CreatedAt    time.Time  `json:"created_at"`
	UpdatedAt    time.Time  `json:"updated_at"`
	ReviewedAt   *time.Time `json:"reviewed_at,omitempty"`
	OccurredAt   time.Time  `json:"occurred_at"`
	SnoozedUntil *time.Time `json:"snoozed_until,omitempty"`

	Version int `json:"version"`
}

// MemoryFilter selects memories. Zero fields do not filter.
type MemoryFilter struct {
	ID         *string
	IDs        []string // any of these ids (nil does not filter; empty matches nothing)
	Collection *string
	Key        *string
	Type       *string
	Tier       *string
	Status     *string // nil means active only; "*" means any status
	Pinned     *bool
	Project    *string
	// Fields filters by field name (tags, category, priority, project,
	// created_by, type, tier, status, or metadata.NAME): a memory matches when
	// the field equals any of the values (for tags: carries any of them).
	Fields map[string][]string
	Since  *time.Time // occurred_at >= Since
	Until  *time.Time // occurred_at < Until
	// Newest orders by occurred_at, newest first, instead of the last
	// update first (a time window's listing).
	Newest bool

	Offset int
	Limit  int
}

// MemoryUpdate changes some fields of a memory. Nil fields stay as they are.
type MemoryUpdate struct {
	Title        *string
	Content      *string
	Tags         *[]string
	MergeTags    bool // add Tags to the existing tags instead of replacing them
	Type         *string
	Category     *string
	Context      *string
	Related      *[]string
	Project      *string
	Priority     *string
	Confidence   *float64
	Tier         *string
	Pinned       *bool
	Status       *string
	Metadata     *json.RawMessage // merged key by key into the existing object; a null value removes the key
	Anchors      *[]Anchor
	Key          *string
	Collection   *string
	OccurredAt   *time.Time
	ReviewedAt   *time.Time
	SnoozedUntil *time.Time
	ClearSnooze  bool
}

// PutResult says what a put did.
type PutResult struct {
	Memory  *Memory
	Created bool // false when an existing key got a new version
	// Unchanged is true when the memory already held what was put: no
	// version was written and Memory is the stored one.
	Unchanged bool
}

// ImportResult counts what an import did.
type ImportResult struct {
	Added   int `json:"added"`
	Updated int `json:"updated"`
	// Unchanged counts memories that already held what was imported: they
	// keep their version.
	Unchanged int `json:"unchanged"`
}

// MemoryService stores curated memories. Every change writes a new version;
// earlier states stay readable and restorable until purged.
type MemoryService interface {
	// PutMemory inserts m, or writes a new version of the memory with the
	// same key in the same collection. Empty fields get defaults. A put,
	// update or import that changes nothing (SameMemory) writes no version:
	// the memory keeps its version and the result says Unchanged. Returns
	// EINVALID for a bad collection or key, ETOOLARGE for oversized content.
	PutMemory(ctx context.Context, m *Memory) (*PutResult, error)

	// FindMemory returns the memory whose id, or whose key in collection
	// (any collection when empty), is ref. Returns ENOTFOUND if there is none
	// and ECONFLICT if a key matches in several collections.
	FindMemory(ctx context.Context, ref, collection string) (*Memory, error)

	// FindMemories returns the memories matching filter, newest change first,
	// and the total count ignoring Offset and Limit.
	FindMemories(ctx context.Context, filter MemoryFilter) ([]*Memory, int, error)

	// UpdateMemory applies upd to the memory with this id and returns it;
	// when upd changes nothing the memory keeps its version. Returns
	// ENOTFOUND if it does not exist.
	UpdateMemory(ctx context.Context, id string, upd MemoryUpdate) (*Memory, error)

	// DeleteMemory removes the memory; its versions stay until purged.
	// Returns ENOTFOUND if it does not exist.
	DeleteMemory(ctx context.Context, id string) error

	// MemoryVersions lists every stored version of id, oldest first, also
	// for a deleted memory. Returns ENOTFOUND if there is none.
	MemoryVersions(ctx context.Context, id string) ([]*MemoryVersion, error)

	// RestoreMemory writes version n of id back as a new version (recreating
	// a deleted memory). Returns ENOTFOUND for an unknown id or version.
	RestoreMemory(ctx context.Context, id string, n int) (*Memory, error)

	// ImportMemories writes all memories in one transaction, keeping their
	// ids: either every one is written or none.
	ImportMemories(ctx context.Context, ms []*Memory) (*ImportResult, error)
}

// MemoryStreamImporter is a MemoryService that imports memories as they are
// read, holding a batch rather than the whole input in memory: a large
// file imports in bounded memory. Callers check for it with a type
// assertion and fall back to ImportMemories.
type MemoryStreamImporter interface {
	// ImportMemoryStream writes the memories ms yields in one transaction,
	// as ImportMemories does: an error from ms, or from any memory, rolls
	// back every memory, so either all are written or none.
	ImportMemoryStream(ctx context.Context, ms iter.Seq2[*Memory, error]) (*ImportResult, error)
}
