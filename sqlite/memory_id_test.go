package sqlite

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// takenIDs makes newID return the given ids first, then fresh ones, until
// the test ends; it reports how many it has made.
func takenIDs(t *testing.T, ids ...string) *int {
	made := 0
	t.Cleanup(func() { newID = recall.NewID })
	newID = func() string {
		made++
		if made <= len(ids) {
			return ids[made-1]
		}
		return recall.NewID()
	}
	return &made
}

// A generated id that is taken already is drawn again, in a put and in a
// batch alike; ten taken draws in a row give up with ECONFLICT.
func TestInsertMemory_RedrawsTakenID(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	s := NewMemoryService(db)
	taken := putContent(t, s, "the first memory")

	made := takenIDs(t, taken, taken)
	res, err := s.PutMemory(ctx, &recall.Memory{Content: "a second memory"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Memory.ID == taken || !recall.IsID(res.Memory.ID) || *made != 3 {
		t.Fatalf("put: id %s after %d draws; want a new id at the third", res.Memory.ID, *made)
	}

	made = takenIDs(t, taken)
	batch := []*recall.Memory{{Content: "batched one"}, {Content: "batched two"}}
	if r, err := s.ImportMemories(ctx, batch); err != nil || r.Added != 2 {
		t.Fatalf("import: %+v, %v", r, err)
	}
	if *made != 3 {
		t.Fatalf("import: %d draws for two memories and one taken id, want 3", *made)
	}
	var n int
	if err := db.read.QueryRow(`SELECT count(DISTINCT id) FROM memories`).Scan(&n); err != nil || n != 4 {
		t.Fatalf("%d different ids stored (%v), want 4", n, err)
	}

	takenIDs(t, taken, taken, taken, taken, taken, taken, taken, taken, taken, taken)
	_, err = s.PutMemory(ctx, &recall.Memory{Content: "never stored"})
	if recall.ErrorCode(err) != recall.ECONFLICT || !strings.Contains(recall.ErrorMessage(err), taken) {
		t.Fatalf("ten taken draws: %v, want ECONFLICT naming %s", err, taken)
	}
}

// Sessions named by the store all differ, made in the same second, and
// their suffixes are random, not the leading (clock) digits of a memory id.
func TestNewSessionID_Random(t *testing.T) {
	now := time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	firsts := map[byte]bool{}
	for range 1000 {
		id := newSessionID(now)
		suffix, ok := strings.CutPrefix(id, "20261125-010000-")
		if !ok || len(suffix) != 6 || strings.Trim(suffix, "0123456789abcdef") != "" {
			t.Fatalf("session id %q", id)
		}
		seen[id] = true
		firsts[suffix[0]] = true
	}
	// 1,000 draws of 24 bits: a repeat has odds of about 3%.
	if len(seen) < 998 || len(firsts) != 16 {
		t.Fatalf("1,000 session ids: %d different, %d different first digits", len(seen), len(firsts))
	}
}
