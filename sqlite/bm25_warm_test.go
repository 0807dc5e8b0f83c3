package sqlite

import (
	"context"
	"slices"
	"testing"
)

// The lengths' first chunk is read early enough that the last is read
// at the search that would read them all in one: max(32, rows / 6,000).
func TestLengthsAfter_HeldAtTheSameSearch(t *testing.T) {
	var l ftsLengths
	for _, c := range []struct {
		rows int64
		want int
	}{
		{200, 32},      // one chunk
		{100000, 32},   // one chunk
		{300000, 48},   // three chunks, the last at 50
		{1000000, 159}, // eight chunks, the last at 166
	} {
		if got := l.lengthsAfter(ftsMatch{rows: c.rows}); got != c.want {
			t.Errorf("%d rows: first chunk at search %d, want %d", c.rows, got, c.want)
		}
	}
}

// A common word's rows are read at the search of it that the read pays
// for, estimated from its newest rows' span: at a million rows a word in
// most of them waits for several searches, at 100,000 for the second.
func TestWordReadAfter_GrowsWithTheWordsRows(t *testing.T) {
	s := NewMemoryService(openDB(t))
	for _, c := range []struct {
		rows, span int64 // the index's rows; the rowids of the word's newest 6,000
		want       int
	}{
		{1000000, 7120, 5},    // "jio" at a million: 842,719 rows
		{1000000, 8935, 4},    // "peamdratest": 671,450
		{1000000, 60000, 2},   // a word in a tenth of the rows
		{100000, 7140, 2},     // "jio" at 100,000: 84,000
		{100000, 6000, 2},     // a word in every row
		{1000000, 1000001, 2}, // a rowid bound below every row
	} {
		known := int(c.rows) + 1
		m := ftsMatch{rows: c.rows, from: int64(known) - c.span}
		if got := s.wordReadAfter(m, known); got != c.want {
			t.Errorf("%d rows, span %d: read at search %d, want %d", c.rows, c.span, got, c.want)
		}
	}
}

// Until the search that reads it, a common word's newest rows are
// bm25()'s; that search and the later ones score them here, the same.
func TestOwnRankNewest_ReadWaitsForItsSearches(t *testing.T) {
	ctx := context.Background()
	s, _, _ := ownStore(t, 5, 500)
	s.db.lengths.after = 1
	s.db.lengths.wordRows = 100 // the word's ~500 rows: read at its fifth search
	m := ownMatch(t, s, "w0x")
	m.from = 50
	want, err := s.rankExpr(ctx, m.expr, m.from, 20)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		rows, ok, err := s.ownRank(ctx, m, 20)
		if err != nil || ok != (i >= 4) || ok && !slices.Equal(rows, want) {
			t.Fatalf("search %d: scored here %v (%v): got %v, want %v", i+1, ok, err, rows, want)
		}
		if reads := s.db.lengths.words.reads; reads != min(1, max(0, i-3)) {
			t.Fatalf("search %d: the word read %d times", i+1, reads)
		}
	}
}

// The lengths are read a chunk a search from the count on: each search
// reads at most the chunk's rows and scores with bm25() until the last
// chunk, whose search holds them all, rowids missing or not; a write in between makes the new
// version's searches read from the first chunk again.
func TestRowLengths_ReadAChunkASearch(t *testing.T) {
	ctx := context.Background()
	s, rng, word := ownStore(t, 8, 300)
	s.db.lengths.after, s.db.lengths.chunk = 2, 64
	// Rows deleted: rowids missing, a chunk's range of them all.
	for _, id := range memoryIDs(t, s)[100:180] {
		if err := s.DeleteMemory(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	whole := func(m ftsMatch) []int32 {
		t.Helper()
		lens, next, _, err := s.readLengths(ctx, m, nil, 0, 1<<30)
		if err != nil || lens == nil || next >= 0 {
			t.Fatalf("the whole read: %v, next %d", err, next)
		}
		return lens
	}
	for round := range 2 {
		m := ownMatch(t, s, "w1x run")
		want := whole(m)
		if round == 0 && !slices.Contains(want[1:], -1) {
			t.Fatal("no rowid missing")
		}
		chunks := (len(want)-1)/64 + 1 // rowids from 0, 64 a chunk, to the largest
		reads := s.db.lengths.reads
		for i := range 1 + chunks {
			got := s.rowLengths(ctx, m)
			if (got != nil) != (i == chunks) || got != nil && !slices.Equal(got, want) {
				t.Fatalf("round %d, search %d of %d chunks: lengths %v, want %v", round, i+1, chunks, got != nil, want)
			}
			if r := s.db.lengths.reads - reads; r != max(0, i) {
				t.Fatalf("round %d, search %d: %d chunks read", round, i+1, r)
			}
		}
		if got, ok, err := s.ownRank(ctx, m, 30); err != nil || !ok {
			t.Fatalf("round %d: not scored here with the lengths held (%v)", round, err)
		} else if bm, err := s.rankExpr(ctx, m.expr, 0, 30); err != nil || !slices.Equal(got, bm) {
			t.Fatalf("round %d: got %v, want %v (%v)", round, got, bm, err)
		}
		// Two chunks of the next version read, then a write: the
		// version after it starts from its first chunk.
		if _, err := s.PutMemory(ctx, ownMemory(rng, word)); err != nil {
			t.Fatal(err)
		}
		m = ownMatch(t, s, "w1x")
		for range 3 {
			if s.rowLengths(ctx, m) != nil {
				t.Fatal("lengths held after two of their chunks")
			}
		}
		if s.db.lengths.next != 128 { // rowids 0 to 127 read
			t.Fatalf("read on from rowid %d after two chunks, want 128", s.db.lengths.next)
		}
		if _, err := s.PutMemory(ctx, ownMemory(rng, word)); err != nil {
			t.Fatal(err)
		}
	}
}

// A docsize record holds one varint a column: one of another number is
// corrupt to FTS5 (bm25() reports it), so it is not parsed, and bm25()
// scores that version.
func TestDocTokens_OneVarintAColumn(t *testing.T) {
	for _, c := range []struct {
		rec  []byte
		want int32
		ok   bool
	}{
		{[]byte{2, 7, 1}, 10, true},
		{[]byte{0x81, 0x00, 0, 3}, 131, true},
		{[]byte{2, 7}, 0, false},
		{[]byte{2, 7, 1, 5}, 0, false},
		{nil, 0, false},
	} {
		got, ok := docTokens(c.rec)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("docTokens(%x) = %d, %v; want %d, %v", c.rec, got, ok, c.want, c.ok)
		}
	}
}

// An instance in a column the table does not have (a corrupt index)
// leaves the word to bm25() rather than failing the search.
func TestTermInstances_UnknownColumn(t *testing.T) {
	db := openTemp(t, nil)
	st, err := db.read.Prepare(`SELECT ?`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, c := range []struct {
		text string
		rows int
	}{{"4,5,9", 2}, {"4,7", 0}} {
		list, _, err := termInstances(t.Context(), st, 10, 0, c.text)
		if err != nil || len(list) != c.rows || c.rows == 0 && list != nil {
			t.Errorf("%q: %v, %v; want %d rows", c.text, list, err, c.rows)
		}
	}
}
