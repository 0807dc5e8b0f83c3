package sqlite

import (
	"bytes"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/recall-mem/recall"
	sqlite3 "modernc.org/sqlite"
)

// A version that is its memory's current one, written from the same state
// as the live row, stores no snapshot at all (migration 0020): its
// snapshot column is empty and readers rebuild the JSON from the row with
// recall_memory_snapshot, the same Go encoding saveVersion uses, so the
// bytes are identical. A version shares the row only when they are:
// saveVersion and the migration compare the two encodings first.

// sharedSnapshot marks a version row whose snapshot is the live row's.
const sharedSnapshot = ""

// snapshotArgs are the arguments of recall_memory_snapshot for the
// memories row aliased m: memoryColumns without the content, which a
// snapshot leaves to its own column (TestSnapshotArgs checks the two
// agree). Migration 0020's triggers list them for the old row.
const snapshotArgs = `m.id, m.key, m.collection, m.type, m.title, m.tags, m.category,
	m.context, m.related, m.project, m.priority, m.created_by, m.confidence, m.tier, m.pinned,
	m.status, m.anchors, m.metadata, m.created_at, m.updated_at, m.reviewed_at, m.occurred_at,
	m.snoozed_until, m.version`

var snapshotArity = strings.Count(snapshotArgs, ",") + 1

func init() {
	if err := sqlite3.RegisterDeterministicScalarFunction("recall_memory_snapshot", int32(snapshotArity), rowSnapshotFunc); err != nil {
		panic(err)
	}
}

// rowSnapshotFunc is recall_memory_snapshot(columns...): the snapshot of
// a memories row, as saveVersion would have encoded it.
func rowSnapshotFunc(_ *sqlite3.FunctionContext, args []driver.Value) (driver.Value, error) {
	snap, err := snapshotOf(args)
	if err != nil {
		return nil, err
	}
	return string(snap), nil
}

// snapshotOf encodes the memory whose stored columns (snapshotColumns'
// order) are vals.
func snapshotOf(vals []driver.Value) ([]byte, error) {
	withContent := make([]driver.Value, 0, len(vals)+1)
	withContent = append(withContent, vals[:5]...)
	withContent = append(withContent, "")
	withContent = append(withContent, vals[5:]...)
	m, err := scanMemory(valueScanner(withContent))
	if err != nil {
		return nil, fmt.Errorf("recall_memory_snapshot: %w", err)
	}
	return json.Marshal(snapshotJSON{Memory: m})
}

// rowShares reports whether the memories row written from m rebuilds to
// snap, m's snapshot: times finer than the row's milliseconds, a zone
// other than UTC or anything else the row stores differently keep the
// version's own snapshot.
func rowShares(m *recall.Memory, snap []byte) bool {
	args := memoryArgs(m)
	vals := make([]driver.Value, 0, len(args))
	vals = append(vals, m.ID)
	for i, a := range args {
		if i == 4 { // the content
			continue
		}
		v, err := storedValue(a)
		if err != nil {
			return false
		}
		vals = append(vals, v)
	}
	rebuilt, err := snapshotOf(vals)
	return err == nil && bytes.Equal(rebuilt, snap)
}

// storedValue is the value SQLite hands back for argument a of an
// insert: booleans come back as integers.
func storedValue(a any) (driver.Value, error) {
	if v, ok := a.(driver.Valuer); ok {
		return v.Value()
	}
	switch v := a.(type) {
	case bool:
		if v {
			return int64(1), nil
		}
		return int64(0), nil
	case int:
		return int64(v), nil
	}
	return a, nil
}

// valueScanner scans SQL values the way database/sql would into the
// destination types scanMemory uses.
type valueScanner []driver.Value

func (vs valueScanner) Scan(dest ...any) error {
	if len(dest) != len(vs) {
		return fmt.Errorf("%d values for %d columns", len(vs), len(dest))
	}
	for i, d := range dest {
		if err := assignValue(d, vs[i]); err != nil {
			return fmt.Errorf("column %d: %w", i, err)
		}
	}
	return nil
}

// assignValue stores v in dest as database/sql's Scan would (through
// its conversions), NULL only into a nullable destination.
func assignValue(dest any, v driver.Value) error {
	switch d := dest.(type) {
	case sql.Scanner:
		return d.Scan(v)
	case *string:
		return scanInto(d, v)
	case *int64:
		return scanInto(d, v)
	case *int:
		return scanInto(d, v)
	case *float64:
		return scanInto(d, v)
	case *bool:
		return scanInto(d, v)
	}
	return fmt.Errorf("cannot store %T in %T", v, dest)
}

func scanInto[T any](dest *T, v driver.Value) error {
	var n sql.Null[T]
	if err := n.Scan(v); err != nil {
		return err
	}
	if !n.Valid {
		return fmt.Errorf("NULL in a %T", dest)
	}
	*dest = n.V
	return nil
}
