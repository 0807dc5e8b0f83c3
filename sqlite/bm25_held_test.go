package sqlite

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/recall-mem/recall"
)

// A search scored by the process holds the words it read whole (all
// their rows and IDF, a word no row has included) at the index's
// version: a later search of the version reads only the words not held,
// a write makes every word read again, and each window is bm25()'s.
func TestOwnRank_WordsHeldAcrossSearches(t *testing.T) {
	ctx := context.Background()
	s, rng, word := ownStore(t, 7, 400)
	s.db.lengths.after = 1
	check := func(text string, window, whole int) {
		t.Helper()
		m := ownMatch(t, s, text)
		want, err := s.rankExpr(ctx, m.expr, 0, window)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.ownRank(ctx, m, window)
		if err != nil || !ok || !slices.Equal(got, want) {
			t.Fatalf("%q: scored here %v (%v): got %v, want %v", text, ok, err, got, want)
		}
		if s.db.lengths.words.wholeReads != whole {
			t.Fatalf("%q: %d words read whole in all, want %d", text, s.db.lengths.words.wholeReads, whole)
		}
	}
	check("w5x w9x", 20, 2)
	check("w9x w5x", 7, 2)             // both held
	check("w9x nosuchword w7x", 40, 4) // two more; the unknown word held too
	check("nosuchword w7x w5x", 40, 4)
	if _, err := s.PutMemory(ctx, ownMemory(rng, word)); err != nil {
		t.Fatal(err)
	}
	check("w5x w9x", 20, 6) // another version: read again
	m := &recall.Memory{Title: "w9x", Content: "w9x w9x w5x"}
	if _, err := s.PutMemory(ctx, m); err != nil {
		t.Fatal(err)
	}
	check("w9x w5x", 20, 8)
	check("w5x w9x", 3, 8)
}

// Words no row has hold no rows, but are words: their number is bounded
// too, or a server asked ever new unknown words would keep them all.
// The words held whole, filling their bounds, leave the common words'
// newest rows held.
func TestHeldWords_WordsBounded(t *testing.T) {
	var l ftsLengths
	v := []byte("v1")
	common := &heldWord{from: 5, rows: []termRows{{doc: 6, f: 1}}}
	l.hold(v, "jio", common)
	for i := range maxHeldWords + 5 {
		l.hold(v, fmt.Sprintf("nosuchword%d", i), &heldWord{})
		if len(l.words.whole.words) > maxHeldWords {
			t.Fatalf("%d words held after %d", len(l.words.whole.words), i+1)
		}
	}
	for range 3 {
		l.hold(v, "run", &heldWord{rows: make([]termRows, maxHeldRows/2+1)})
		l.hold(v, "runner", &heldWord{rows: make([]termRows, maxHeldRows/2+1)})
	}
	if l.words.whole.words["runner"] == nil || l.words.whole.rows != maxHeldRows/2+1 {
		t.Fatalf("a word held after the start over: %v, %d rows", l.words.whole.words["runner"], l.words.whole.rows)
	}
	if got, read := l.heldWord(v, "jio", 5, wordsAfter); got != common || read {
		t.Fatalf("the common word's rows after the whole words started over: %v, read %v", got, read)
	}
}

// Rows read by append carry spare capacity, up to their length again;
// held, they keep only their length, which is what the bound counts.
func TestHeldWords_HoldOnlyTheirLength(t *testing.T) {
	var l ftsLengths
	v := []byte("v1")
	rows := make([]termRows, 1000, 4096)
	l.hold(v, "run", &heldWord{rows: rows})
	if got := l.words.whole.words["run"].rows; len(got) != 1000 || cap(got) != 1000 {
		t.Fatalf("held rows: length %d, capacity %d; want 1000 and 1000", len(got), cap(got))
	}
}
