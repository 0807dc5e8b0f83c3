package recall

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// CopyKind names one kind of row a store-to-store copy moves.
type CopyKind string

// The kinds of rows a copy moves, in CopyKinds order.
const (
	CopyMemories     CopyKind = "memories"     // current rows, every status
	CopyVersions     CopyKind = "versions"     // every stored version, deleted memories' too
	CopyObservations CopyKind = "observations" // ids kept: rollups name them
	CopySessions     CopyKind = "sessions"
	CopyRollups      CopyKind = "rollups" // with their sources
	CopyVectors      CopyKind = "vectors" // fresh passages only
	CopySyncRecords  CopyKind = "sync_records"
	CopyMeta         CopyKind = "meta" // store facts that belong to the data
	CopyForgetLog    CopyKind = "forget_log"
)

// CopyKinds lists every kind in the order a copy loads them: vectors
// after the memories they belong to.
var CopyKinds = []CopyKind{CopyMemories, CopyVersions, CopyObservations, CopySessions,
	CopyRollups, CopyVectors, CopySyncRecords, CopyMeta, CopyForgetLog}

// CopyBatch is a batch of rows as a store holds them. A dump fills the
// field of one kind; a load writes whatever the batch holds.
type CopyBatch struct {
	Memories     []*Memory
	Versions     []*MemoryVersion
	Observations []*Observation
	Sessions     []*Session
	// Rollups carry their direct sources as Kind and ID only.
	Rollups     []*Rollup
	Vectors     []*VectorRow
	SyncRecords []SyncRecord
	Meta        []MetaRow
	ForgetLog   []ForgetLogRow
}

// Len counts the rows of the batch, every kind.
func (b *CopyBatch) Len() int {
	return len(b.Memories) + len(b.Versions) + len(b.Observations) + len(b.Sessions) +
		len(b.Rollups) + len(b.Vectors) + len(b.SyncRecords) + len(b.Meta) + len(b.ForgetLog)
}

// VectorRow is the embedding of one passage of a memory's current text.
type VectorRow struct {
	MemoryID string    `json:"memory_id"`
	Chunk    int       `json:"chunk"`
	Start    int       `json:"start"` // byte offsets of the passage in the content
	End      int       `json:"end"`
	Model    string    `json:"model"`
	Dim      int       `json:"dim"`
	Vec      []float32 `json:"vec"`
}

// MetaRow is one store fact.
type MetaRow struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ForgetLogRow is one entry of the audit log of purges and sweeps
// (StoreStats.LastPurge and LastSweep read it): no content, only what ran
// and how much went. It has no id of its own: a load skips an entry the
// store holds already (same time, kind and criteria).
type ForgetLogRow struct {
	At       time.Time       `json:"at"`
	Kind     string          `json:"kind"` // purge or sweep
	Criteria string          `json:"criteria"`
	Counts   json.RawMessage `json:"counts"` // a JSON object of counts
}

// StoreCopier is the raw side of a store that moving it to another
// backend needs (recall migrate): rows read and written exactly as they
// are, ids, versions and times kept, nothing redacted, validated,
// versioned or embedded on the way.
type StoreCopier interface {
	// CountRows counts the rows of kind that DumpRows yields.
	CountRows(ctx context.Context, kind CopyKind) (int, error)
	// DumpRows calls fn with the rows of kind in batches of at most size
	// (0: the backend's default), in a stable order, until fn returns an
	// error (returned) or the rows end. Vectors are only those of a
	// memory's current text (a stale vector is left behind: the target
	// embeds again); meta leaves out the facts that are the backend's own
	// (its vector model, cache epochs, the embedder's last failure).
	DumpRows(ctx context.Context, kind CopyKind, size int, fn func(*CopyBatch) error) error
	// LoadRows writes every row of b in one transaction. A row replaces
	// the one with its id (a memory's version: its id and number; a
	// vector: its memory and chunk), so loading twice leaves one copy. A
	// memory loaded drops the vectors it had: its vectors are those loaded
	// after it, and without them it is left for the embedder, as a new
	// write would be. A vector of an unknown memory is an error (EINVALID).
	// Returns ECONFLICT, writing nothing, when a row clashes with another
	// of a different id (a key taken in its collection).
	LoadRows(ctx context.Context, b *CopyBatch) error
	// FinishLoad builds what loading leaves for the end, once every batch
	// is in: an index cheaper to build over all rows than to update row
	// by row (PostgreSQL's vector index). Until it runs the store works,
	// only slower.
	FinishLoad(ctx context.Context) error
	// StoredVector returns v as the store reads it back once stored: the
	// same values, or as many as its storage keeps (SQLite quantises them
	// to int8). Applied twice it changes nothing more, so a copy's check
	// compares the source's vectors through it with the target's.
	StoredVector(v []float32) []float32
}

// DefaultCopyBatch is how many rows a dump hands over at once when the
// caller leaves the size to the store.
const DefaultCopyBatch = 500

// CopyKindOf returns what a backend's table holds for kind: EINVALID
// for a kind it does not know.
func CopyKindOf[T any](table map[CopyKind]T, kind CopyKind) (T, error) {
	v, ok := table[kind]
	if !ok {
		return v, Errorf(EINVALID, "Unknown kind of rows %q: use one of %v.", kind, CopyKinds)
	}
	return v, nil
}

// BatchRows is the loop of a backend's DumpRows over the result of its
// query: next advances to the next row (false at the end), read appends
// that row to the batch, end reports what stopped next, and fn gets
// every batch of size rows (0: DefaultCopyBatch) and the last, shorter
// one. It stops at the first error.
func BatchRows(size int, next func() bool, read func(*CopyBatch) error, end func() error, fn func(*CopyBatch) error) error {
	if size <= 0 {
		size = DefaultCopyBatch
	}
	b, n := &CopyBatch{}, 0
	for next() {
		if err := read(b); err != nil {
			return err
		}
		if n++; n == size {
			if err := fn(b); err != nil {
				return err
			}
			b, n = &CopyBatch{}, 0
		}
	}
	if err := end(); err != nil {
		return err
	}
	if n > 0 {
		return fn(b)
	}
	return nil
}

// RowScanner is a row of a database driver, database/sql's or pgx's.
type RowScanner interface{ Scan(dest ...any) error }

// RollupWithSources reads a row that holds a rollup's columns, which scan
// reads, followed by its sources as SourcePairs decodes them.
func RollupWithSources(row RowScanner, scan func(RowScanner) (*Rollup, error)) (*Rollup, error) {
	var sources string
	r, err := scan(lastColumn{row, &sources})
	if err == nil {
		r.Sources, err = SourcePairs(sources)
	}
	return r, err
}

// lastColumn scans a row's last column into extra, the others into what
// its caller asks for.
type lastColumn struct {
	row   RowScanner
	extra any
}

func (l lastColumn) Scan(dest ...any) error { return l.row.Scan(append(dest, l.extra)...) }

// SourcePairs decodes a rollup's direct sources from a JSON array of
// [kind, id] pairs, the form a backend's dump aggregates them in.
func SourcePairs(text string) ([]RollupSource, error) {
	var pairs [][2]string
	if err := json.Unmarshal([]byte(text), &pairs); err != nil {
		return nil, fmt.Errorf("rollup sources: %w", err)
	}
	out := make([]RollupSource, 0, len(pairs))
	for _, p := range pairs {
		out = append(out, RollupSource{Kind: p[0], ID: p[1]})
	}
	return out, nil
}

// TallyJSON encodes a rollup's tally for its column: [] when empty.
func TallyJSON(values []RollupValue) (string, error) {
	if len(values) == 0 {
		return "[]", nil
	}
	b, err := json.Marshal(values)
	return string(b), err
}
