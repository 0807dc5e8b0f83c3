package recall

import (
	"context"
	"time"
)

// Defaults for the working set (seed 000).
const (
	DefaultWorkingFile = "CLAUDE.local.md"
	DefaultBudgetWords = 1500
	DefaultSnoozeDays  = 30
	StaleAfterDays     = 30
)

// ManagedEntry is one memory as it sits in a managed markdown file: a
// single-line list item ending in its id token. The file it sits in decides
// its tier.
type ManagedEntry struct {
	ID   string `json:"id"`
	File string `json:"file"` // slash-separated, relative to the project root
	Line int    `json:"line"` // 1-based
	Text string `json:"text"` // between "- " and " ^tr…"
	Tier string `json:"tier"`
}

// SyncRecord is what the last sync wrote for an entry. Comparing a file and
// the store against it tells which side changed since, so that an edit on
// either side wins over the stale other side.
type SyncRecord struct {
	ID   string `json:"id"`
	File string `json:"file"`
	Text string `json:"text"`
	Tier string `json:"tier"`
}

// MemoryChange is an update to one memory within a batch.
type MemoryChange struct {
	ID     string
	Update MemoryUpdate
}

// TierChanges is everything one sync or maintenance step writes to the
// store, applied in a single transaction.
type TierChanges struct {
	Op      string         // the version op recorded: sync, maintain, pin, …
	Insert  []*Memory      // new memories, ids kept
	Update  []MemoryChange // changes to existing memories
	Records []SyncRecord   // sync records to write (replacing older ones)
	Drop    []string       // ids whose sync records go
	Meta    map[string]string
}

// TierStore keeps the bookkeeping of the managed files in the store.
type TierStore interface {
	// SyncRecords returns every sync record by id.
	SyncRecords(ctx context.Context) (map[string]SyncRecord, error)
	// StoreMeta returns a store fact, "" when unset.
	StoreMeta(ctx context.Context, key string) (string, error)
	// ApplyTierChanges writes all changes in one transaction, or none.
	// Inserts keep their ids; every insert and update writes a version
	// with op ch.Op ("" means sync). A record replaces the one of its id;
	// Drop removes records; Meta sets facts.
	// Returns ENOTFOUND for an update of an unknown memory, ECONFLICT when a
	// pin clashes with a pinned title or an inserted id is taken, EINVALID
	// for a bad field.
	ApplyTierChanges(ctx context.Context, ch TierChanges) error
	// AnchoredMemories returns the active memories that have anchors.
	AnchoredMemories(ctx context.Context) ([]*Memory, error)
}

// DaysSince counts whole days from t to now; a missing time counts as 365
// days (seed 000).
func DaysSince(t *time.Time, now time.Time) int {
	if t == nil {
		return 365
	}
	d := int(now.Sub(*t).Hours() / 24)
	if d < 0 {
		return 0
	}
	return d
}

// TierStat describes one tier of the store for `recall tiers`.
type TierStat struct {
	Tier    string     `json:"tier"` // raw or rollup
	Kind    string     `json:"kind"` // memories, observations, or a bucket type
	Status  string     `json:"status"`
	Count   int        `json:"count"`
	From    *time.Time `json:"from,omitempty"`
	To      *time.Time `json:"to,omitempty"`
	Tokens  int        `json:"tokens"` // estimate: characters / 4
	Bytes   int64      `json:"bytes"`  // sum of the stored row bytes
	Entries int        `json:"entries,omitempty"`
}
