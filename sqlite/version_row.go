package sqlite

import (
	"bytes"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recall-mem/recall"
	sqlite3 "modernc.org/sqlite"
)

// A version that is its memory's current one, written from the same state
// as the live row, stores no snapshot at all (migration 0020): its
// snapshot column is empty and readers rebuild the JSON from the row with
// recall_memory_snapshot (through the view memory_snapshots), the same Go
// encoding saveVersion uses, so the bytes are identical. A version shares the row only when they are:
// saveVersion and the migration compare the two encodings first.

// sharedSnapshot marks a version row whose snapshot is the live row's.
const sharedSnapshot = ""

// recall_memory_snapshot takes memoryColumns less the content, which a
// snapshot leaves to its own column: the view memory_snapshots (migration
// 0020) passes them.
var (
	snapshotArity = strings.Count(memoryColumns, ",")
	contentColumn = strings.Count(memoryColumns[:strings.Index(memoryColumns, "m.content")], ",")
)

func init() {
	if err := sqlite3.RegisterDeterministicScalarFunction("recall_memory_snapshot", int32(snapshotArity), rowSnapshotFunc); err != nil {
		panic(err)
	}
}

// rowSnapshotFunc is recall_memory_snapshot(columns...): the snapshot of
// a memories row, as saveVersion would have encoded it.
func rowSnapshotFunc(_ *sqlite3.FunctionContext, args []driver.Value) (driver.Value, error) {
	row := slices.Insert(slices.Clone(args), contentColumn, driver.Value(""))
	snap, err := snapshotOf(row)
	if err != nil {
		return nil, err
	}
	return string(snap), nil
}

// snapshotOf encodes the memory whose row holds vals (memoryColumns'
// order), leaving out its content.
func snapshotOf(vals []driver.Value) ([]byte, error) {
	m, err := scanMemory(valueScanner(vals))
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
	args := appendMemoryArgs([]any{m.ID}, m)
	vals := make([]driver.Value, len(args))
	for i, a := range args {
		v, err := storedValue(a)
		if err != nil {
			return false
		}
		vals[i] = v
	}
	vals[contentColumn] = ""
	rebuilt, err := snapshotOf(vals)
	return err == nil && bytes.Equal(rebuilt, snap)
}

// rowIsCanonical reports whether m holds its fields in exactly the form
// the memories row written from it reads back as, so that rowShares
// holds without encoding either side: every time in UTC, in whole
// milliseconds and in the years JSON can carry; metadata absent or a
// valid JSON value other than {} and null (which the row reads back as
// absent); lists whose JSON round trip is exact (valid UTF-8); a
// confidence JSON can encode. It may answer false for a memory that
// shares its row all the same: rowShares then decides.
func rowIsCanonical(m *recall.Memory) bool {
	for _, t := range [...]*time.Time{&m.CreatedAt, &m.UpdatedAt, &m.OccurredAt, m.ReviewedAt, m.SnoozedUntil} {
		if t != nil && !canonicalTime(*t) {
			return false
		}
	}
	if meta := string(m.Metadata); meta == "{}" || meta == "null" || (meta != "" && !json.Valid(m.Metadata)) {
		return false
	}
	if math.IsNaN(m.Confidence) || math.IsInf(m.Confidence, 0) {
		return false
	}
	for _, list := range [...][]string{m.Tags, m.Related} {
		for _, v := range list {
			if !utf8.ValidString(v) {
				return false
			}
		}
	}
	for _, a := range m.Anchors {
		if !utf8.ValidString(a.Path) || !utf8.ValidString(a.Hash) {
			return false
		}
	}
	return true
}

// canonicalTime reports whether t reads back from its milliseconds
// (fromMS) as the same JSON: UTC, no finer than a millisecond, a year of
// four digits.
func canonicalTime(t time.Time) bool {
	return t.Location() == time.UTC && t.Nanosecond()%int(time.Millisecond) == 0 && t.Year() >= 0 && t.Year() <= 9999
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
