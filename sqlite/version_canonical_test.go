package sqlite

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// canonicalCases are memories in and out of the form their row reads back
// as: each variant changes one field of a canonical memory.
func canonicalCases() map[string]*recall.Memory {
	at := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	at2 := at.Add(time.Hour)
	base := func() *recall.Memory {
		return &recall.Memory{ID: "tr00000000f1", Key: "every", Collection: "fields", Type: "note", Title: "All <of> them", Content: "every field set",
			Tags: []string{"a", "b&c"}, Category: "cat", Context: "ctx", Related: []string{"tr00000000f2"}, Project: "proj", Priority: "high",
			CreatedBy: "tester", Confidence: 0.25, Tier: recall.TierRegister, Pinned: true, Status: recall.StatusActive,
			Anchors: []recall.Anchor{{Path: "a.md", Hash: "ff"}}, Metadata: json.RawMessage(`{"k": "v"}`),
			CreatedAt: at, UpdatedAt: at2, ReviewedAt: &at2, OccurredAt: at, SnoozedUntil: &at2, Version: 3}
	}
	paris := time.FixedZone("CET", 3600)
	utcNamed := time.FixedZone("UTC", 0)
	sub := at.Add(time.Microsecond)
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	early := time.Date(1969, 12, 31, 23, 59, 59, 999_000_000, time.UTC)
	cases := map[string]func(m *recall.Memory){
		"every field": func(*recall.Memory) {},
		"bare": func(m *recall.Memory) {
			*m = recall.Memory{ID: "tr00000000f3", Collection: "c", Content: "x", CreatedAt: at, UpdatedAt: at, OccurredAt: at}
		},
		"zero times": func(m *recall.Memory) {
			m.CreatedAt, m.UpdatedAt, m.OccurredAt, m.ReviewedAt, m.SnoozedUntil = time.Time{}, time.Time{}, time.Time{}, nil, nil
		},
		"before 1970":          func(m *recall.Memory) { m.OccurredAt = early },
		"other zone":           func(m *recall.Memory) { m.OccurredAt = at.In(paris) },
		"UTC by another name":  func(m *recall.Memory) { m.CreatedAt = at.In(utcNamed) },
		"local reviewed":       func(m *recall.Memory) { r := at.In(paris); m.ReviewedAt = &r },
		"microseconds":         func(m *recall.Memory) { m.UpdatedAt = sub },
		"snoozed microseconds": func(m *recall.Memory) { m.SnoozedUntil = &sub },
		"year 10000":           func(m *recall.Memory) { m.OccurredAt = far },
		"monotonic clock":      func(m *recall.Memory) { m.CreatedAt = time.Now() },
		"empty metadata {}":    func(m *recall.Memory) { m.Metadata = json.RawMessage(`{}`) },
		"null metadata":        func(m *recall.Memory) { m.Metadata = json.RawMessage(`null`) },
		"spaced {}":            func(m *recall.Memory) { m.Metadata = json.RawMessage(` {} `) },
		"invalid metadata":     func(m *recall.Memory) { m.Metadata = json.RawMessage(`{"k":`) },
		"no metadata":          func(m *recall.Memory) { m.Metadata = nil },
		"empty tags":           func(m *recall.Memory) { m.Tags = []string{} },
		"nil lists":            func(m *recall.Memory) { m.Tags, m.Related, m.Anchors = nil, nil, nil },
		"invalid tag":          func(m *recall.Memory) { m.Tags = []string{"a\xff"} },
		"invalid related":      func(m *recall.Memory) { m.Related = []string{"\xfe"} },
		"invalid anchor":       func(m *recall.Memory) { m.Anchors = []recall.Anchor{{Path: "\xff", Hash: "00"}} },
		"invalid title":        func(m *recall.Memory) { m.Title = "t\xff" },
		"NaN confidence":       func(m *recall.Memory) { m.Confidence = math.NaN() },
		"infinite confidence":  func(m *recall.Memory) { m.Confidence = math.Inf(1) },
		"zero confidence":      func(m *recall.Memory) { m.Confidence = 0 },
		"no key":               func(m *recall.Memory) { m.Key = "" },
	}
	out := map[string]*recall.Memory{}
	for name, change := range cases {
		m := base()
		change(m)
		out[name] = m
	}
	return out
}

// TestRowIsCanonical_AgreesWithRowShares: a memory taken for canonical
// shares its row by the encodings' own comparison (a wrong yes would
// give a version another state than the one it recorded), and the usual
// memories of a write, an import's, are canonical.
func TestRowIsCanonical_AgreesWithRowShares(t *testing.T) {
	canonical := 0
	for name, m := range canonicalCases() {
		snap, err := json.Marshal(snapshotJSON{Memory: m})
		shares := err == nil && rowShares(m, snap)
		if rowIsCanonical(m) {
			canonical++
			if !shares {
				t.Errorf("%s: canonical, but its row does not rebuild to its snapshot (marshal error %v)", name, err)
			}
		}
		stored, content, verr := versionSnapshot(m, true)
		switch {
		case err != nil && verr == nil:
			t.Errorf("%s: the snapshot cannot be encoded (%v), yet the version was made", name, err)
		case err == nil && (stored == sharedSnapshot) != shares:
			t.Errorf("%s: version shared %v, row rebuilds to the snapshot %v", name, stored == sharedSnapshot, shares)
		case err == nil && !shares && stored != string(snap):
			t.Errorf("%s: version stores %s, want %s", name, stored, snap)
		case content != nil:
			t.Errorf("%s: a live version stores its content %v", name, content)
		}
	}
	if canonical < 8 {
		t.Errorf("only %d canonical cases: the fast path is barely tested", canonical)
	}
	for _, name := range []string{"every field", "bare", "zero times", "no metadata", "nil lists"} {
		if !rowIsCanonical(canonicalCases()[name]) {
			t.Errorf("%s: not canonical", name)
		}
	}
}

// TestVersionSnapshot_CanonicalEncodesNothing: a version that shares a
// canonical row costs no JSON encoding (no allocation at all); a
// deletion's version still records the whole snapshot and text.
func TestVersionSnapshot_CanonicalEncodesNothing(t *testing.T) {
	m := canonicalCases()["every field"]
	if n := testing.AllocsPerRun(100, func() {
		if s, _, err := versionSnapshot(m, true); err != nil || s != sharedSnapshot {
			t.Fatalf("snapshot %q, %v", s, err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per shared version, want 0", n)
	}
	stored, content, err := versionSnapshot(m, false)
	want, _ := json.Marshal(snapshotJSON{Memory: m})
	if err != nil || stored != string(want) || content != m.Content {
		t.Errorf("deletion's version: %s, %v, %v; want %s and the text", stored, content, err, want)
	}
}
