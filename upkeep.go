package recall

import "time"

// OrphanObservations is the Upkeep.Orphans kind of observations whose
// session was never started: `recall observe --session ID` records them
// so by design, and a hook does when its session row write failed.
const OrphanObservations = "observations without a session"

// BackupCounts counts the rows of a store or a backup.
type BackupCounts struct {
	Memories     int64 `json:"memories"` // memories of every status; a deleted one counts only in Versions
	Versions     int64 `json:"versions"`
	Observations int64 `json:"observations"`
	Sessions     int64 `json:"sessions"`
	Rollups      int64 `json:"rollups"`
	Vectors      int64 `json:"vectors"`
}

// Empty reports whether there is nothing but vectors, which are derived.
func (c BackupCounts) Empty() bool {
	return c.Memories+c.Versions+c.Observations+c.Sessions+c.Rollups == 0
}

// FileProblem is damage found in a store's files before it is opened.
type FileProblem struct {
	File    string // the damaged file
	Problem string // what is wrong, in a sentence
	// Lost says that committed writes cannot be read back from the files:
	// opening them would discard them. Otherwise the damage is an
	// incomplete last write, which is dropped as it should be.
	Lost bool
}

// VectorStats reports the embedding coverage of a store.
type VectorStats struct {
	Model       string `json:"model"`        // the configured embedder
	StoredModel string `json:"stored_model"` // the model of the stored vectors
	Memories    int    `json:"memories"`
	Embedded    int    `json:"embedded"` // memories whose current version has vectors of the configured model
	Vectors     int    `json:"vectors"`  // passages with vectors
	Queued      int    `json:"queued"`
	Failing     int    `json:"failing"` // queued memories whose last attempt failed
	LastError   string `json:"last_error,omitempty"`
	// ProviderError is the last failure to reach the embedder, cleared
	// when it answers again.
	ProviderError   string     `json:"provider_error,omitempty"`
	ProviderErrorAt *time.Time `json:"provider_error_at,omitempty"`
}

// ReindexOptions says what a reindex embeds.
type ReindexOptions struct {
	All      bool                  // re-embed every memory, not only missing or stale ones
	Progress func(done, total int) // called after each batch
}

// ReindexResult is what a reindex did.
type ReindexResult struct {
	Model    string `json:"model"`
	Dim      int    `json:"dim"`
	Embedded int    `json:"embedded"` // memories embedded (or found unchanged and kept)
	Total    int    `json:"total"`    // memories that needed it
	Removed  int    `json:"removed"`  // vectors of other models dropped
}
