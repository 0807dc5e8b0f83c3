package sqlite

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// matchCount is how many rows an FTS5 expression matches.
func matchCount(t *testing.T, s *MemoryService, expr string) int {
	t.Helper()
	var n int
	if err := s.db.read.QueryRow(`SELECT COUNT(*) FROM memories_fts WHERE memories_fts MATCH ?`, expr).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// structureRecord is the full-text index's structure record.
func structureRecord(t *testing.T, s *MemoryService) []byte { return ftsRecord(t, s, 10) }

// ftsRecord is the block of the full-text index's data record id (10 the
// structure, 1 the averages).
func ftsRecord(t *testing.T, s *MemoryService, id int) []byte {
	t.Helper()
	var rec []byte
	if err := s.db.read.QueryRow(`SELECT block FROM memories_fts_data WHERE id = ?`, id).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// byRank sorts a window by rank, then rowid: equal windows then compare
// equal whatever the order of their ties.
func byRank(rows []rankedRow) []rankedRow {
	return slices.SortedFunc(slices.Values(rows), func(a, b rankedRow) int {
		if a.rank != b.rank {
			return cmp.Compare(a.rank, b.rank)
		}
		return cmp.Compare(a.seq, b.seq)
	})
}

// storeRows is the index's row count as FTS5 keeps it.
func storeRows(t *testing.T, s *MemoryService) int64 {
	t.Helper()
	var rec []byte
	if err := s.db.read.QueryRow(`SELECT block FROM memories_fts_data WHERE id = 1`).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	n, ok := ftsRowCount(rec)
	if !ok {
		t.Fatalf("averages record %x", rec)
	}
	return n
}

// Pruned or not, a window is the one statement over the whole expression
// gives: the same rows with the same scores, bit for bit, on random
// stores (repeated texts make ties at every window edge) and random
// queries of up to six words, several of them common, and random
// windows, with pruning tried at any split of the words: pruned at the
// first split, at a later one, or not at all. Scored first for fewer rows
// than the window (a search's limit), the rows above the bound are the
// statement's first rows, at least as many as asked.
// randomStore is one of the random stores of the pruning's property
// tests: memories of words drawn from a vocabulary where word i comes
// about 1/(i+1) as often as word 0, some in titles and tags, a quarter of
// them copies of earlier ones (equal scores), a tenth in project "p2"
// (the rest in "p1"); word draws a word.
func randomStore(t *testing.T, store int) (s *MemoryService, rng *rand.Rand, word func() string) {
	t.Helper()
	rng = rand.New(rand.NewPCG(uint64(store), 17))
	s = NewMemoryService(openDB(t))
	s.db.lengths.after = -1 // these stores test bm25() and its pruning
	vocab := make([]string, 12+store*6)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx", i)
	}
	word = func() string {
		for {
			i := rng.IntN(len(vocab))
			if rng.IntN(i+1) == 0 {
				return vocab[i]
			}
		}
	}
	text := func(n int) string {
		var w []string
		for range n {
			w = append(w, word())
		}
		return strings.Join(w, " ")
	}
	var batch []*recall.Memory
	for i := range 300 + store*150 {
		if i > 0 && rng.IntN(4) == 0 {
			c := *batch[rng.IntN(len(batch))]
			c.ID = ""
			batch = append(batch, &c)
			continue
		}
		m := &recall.Memory{Content: text(1 + rng.IntN(12)), Project: "p1"}
		if rng.IntN(3) == 0 {
			m.Title = text(1 + rng.IntN(3))
		}
		if rng.IntN(4) == 0 {
			m.Tags = []string{word()}
		}
		if rng.IntN(10) == 0 {
			m.Project = "p2"
		}
		batch = append(batch, m)
	}
	if _, err := s.ImportMemories(t.Context(), batch); err != nil {
		t.Fatal(err)
	}
	return s, rng, word
}

// randomMatch is a query of two to six words drawn by word, kept rarest
// first as matchExpr keeps them, with their exact counts.
func randomMatch(t *testing.T, s *MemoryService, rng *rand.Rand, word func() string) ftsMatch {
	t.Helper()
	var terms []string
	for range 2 + rng.IntN(5) {
		if w := word(); !slices.Contains(terms, w) {
			terms = append(terms, w)
		}
	}
	m := ftsMatch{terms: terms, rows: storeRows(t, s), index: structureRecord(t, s), averages: ftsRecord(t, s, 1)}
	count := func(w string) int { return matchCount(t, s, quoteTerms([]string{w})) }
	slices.SortStableFunc(m.terms, func(a, b string) int { return cmp.Compare(count(a), count(b)) })
	for _, w := range m.terms {
		m.counts = append(m.counts, count(w))
	}
	m.expr = quoteTerms(m.terms)
	return m
}

// forRandomMatches calls f with n random queries on each of four random
// stores.
func forRandomMatches(t *testing.T, n int, f func(store int, s *MemoryService, rng *rand.Rand, m ftsMatch)) {
	t.Helper()
	for store := range 4 {
		s, rng, word := randomStore(t, store)
		for range n {
			f(store, s, rng, randomMatch(t, s, rng, word))
		}
	}
}

func TestRankWindow_SameAsOneStatement(t *testing.T) {
	ctx := context.Background()
	var first, later, all, whole int
	forRandomMatches(t, 250, func(store int, s *MemoryService, rng *rand.Rand, m ftsMatch) {
		window := []int{1, 2, 5, 13, 40, 133}[rng.IntN(6)]
		want, err := s.rankExpr(ctx, m.expr, 0, window)
		if err != nil {
			t.Fatal(err)
		}
		essential := 1 + rng.IntN(max(1, len(m.terms)-1))
		r := &ranking{m: m, window: window, first: essential, try: m.prunable()}
		// First exact down to need rows (a search's limit), then the
		// whole window.
		need := 1 + rng.IntN(window)
		if err := s.score(ctx, r, need); err != nil {
			t.Fatal(err)
		}
		if n := r.exact(); n < min(need, len(want)) || !slices.Equal(byRank(r.rows[:n]), byRank(want[:n])) {
			t.Fatalf("store %d %s window %d, need %d, %d essential (%v): exact %d of %v, want %v", store, m.expr, window, need, essential, r.exprs, n, r.rows, want)
		}
		if err := s.score(ctx, r, window); err != nil {
			t.Fatal(err)
		}
		got, exprs := r.rows, r.exprs
		if !slices.Equal(byRank(got), byRank(want)) {
			t.Fatalf("store %d %s window %d, %d essential (%v): got %v, want %v", store, m.expr, window, essential, exprs, got, want)
		}
		scored := 0
		for _, e := range exprs {
			scored += matchCount(t, s, e)
		}
		switch {
		case len(exprs) == 1:
			whole++
		case scored > matchCount(t, s, m.expr):
			t.Fatalf("%s: %v scored %d rows, more than the expression matches", m.expr, exprs, scored)
		case scored == matchCount(t, s, m.expr):
			all++
		case len(exprs) == len(levelExprs(m.terms, 0, essential)):
			first++
		default:
			later++
		}
	})
	t.Logf("pruned at the first split %d, at a later one %d; every row scored %d, at once %d", first, later, all, whole)
	if first < 50 || later < 30 || all < 50 {
		t.Fatalf("pruned at the first split %d, at a later one %d, not at all %d: the stores do not exercise each", first, later, all)
	}
}

// On a store where the query's common word matches over a thousand rows
// but its rarer words fill the window with better scores, a search scores
// only the rarer words' rows, and still returns what scoring every row
// returns.
func TestSearch_PrunesTheCommonWord(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryService(openDB(t))
	// 10,500 memories: "common" in 1,040 of them (under a tenth: kept),
	// "rare" in the titles of 618 (some with "common") and "odd" in the
	// content of 60.
	var batch []*recall.Memory
	for i := range 10500 {
		m := &recall.Memory{Content: fmt.Sprintf("filler%d text", i)}
		if i%10 == 3 && i < 10400 {
			m.Content += " common"
		}
		if i%17 == 5 {
			m.Title = "rare notes"
		}
		if i%175 == 9 {
			m.Content += " odd"
		}
		batch = append(batch, m)
	}
	if _, err := s.ImportMemories(ctx, batch); err != nil {
		t.Fatal(err)
	}
	m, err := s.matchExpr(ctx, "common rare odd")
	if err != nil || m.expr != `"odd" OR "rare" OR "common"` {
		t.Fatalf("match %+v, %v", m, err)
	}
	window := 133 // a search for 100
	got, exprs, err := s.rankWindow(ctx, m, window)
	if err != nil {
		t.Fatal(err)
	}
	scored := 0
	for _, e := range exprs {
		scored += matchCount(t, s, e)
	}
	head := matchCount(t, s, `"odd" OR "rare"`)
	if all := matchCount(t, s, m.expr); scored != head || all < 1500 || head > 700 {
		t.Errorf("scored %d rows (%v) of %d; want the rarer words' %d", scored, exprs, all, head)
	}
	want, err := s.rankExpr(ctx, m.expr, 0, window)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(byRank(got), byRank(want)) {
		t.Fatalf("pruned window differs:\n%v\n%v", got, want)
	}
	// A write after the words were counted (here between matchExpr and
	// the scoring; in use, another connection's between the statements)
	// changes the index: the pruned statements are not trusted, the
	// expression is scored at once, as it now stands.
	if _, err := s.PutMemory(ctx, &recall.Memory{Title: "rare", Content: "common odd"}); err != nil {
		t.Fatal(err)
	}
	got, exprs, err = s.rankWindow(ctx, m, window)
	if err != nil || exprs[len(exprs)-1] != m.expr {
		t.Fatalf("after a write: scored %v, %v; want the expression last", exprs, err)
	}
	if want, err = s.rankExpr(ctx, m.expr, 0, window); err != nil || !slices.Equal(byRank(got), byRank(want)) {
		t.Fatalf("after a write the window differs (%v):\n%v\n%v", err, got, want)
	}
	// A row with no token leaves the structure record as it was but adds
	// a row to the averages record: every IDF and every score moves, so
	// this too is a changed index.
	if m, err = s.matchExpr(ctx, "common rare odd"); err != nil {
		t.Fatal(err)
	}
	before := structureRecord(t, s)
	if _, err := s.PutMemory(ctx, &recall.Memory{Content: "👍"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(structureRecord(t, s), before) {
		t.Fatal("a row with no token rewrote the structure record: this case tests nothing")
	}
	got, exprs, err = s.rankWindow(ctx, m, window)
	if err != nil || exprs[len(exprs)-1] != m.expr {
		t.Fatalf("after a row with no token: scored %v, %v; want the expression last", exprs, err)
	}
	if want, err = s.rankExpr(ctx, m.expr, 0, window); err != nil || !slices.Equal(byRank(got), byRank(want)) {
		t.Fatalf("after a row with no token the window differs (%v):\n%v\n%v", err, got, want)
	}
	// "odd" alone cannot fill the window with scores above the bound of
	// "common": pruning is not tried, the expression is scored at once.
	m, err = s.matchExpr(ctx, "common odd")
	if err != nil {
		t.Fatal(err)
	}
	if _, exprs, err := s.rankWindow(ctx, m, window); err != nil || len(exprs) != 1 {
		t.Errorf("%s: scored %v, %v; want the expression alone", m.expr, exprs, err)
	}
}

// ftsRowCount reads the averages record's row count, which is the
// index's rows.
func TestFTSRowCount_IsTheIndexRows(t *testing.T) {
	s := wordyStore(t)
	var n int64
	if err := s.db.read.QueryRow(`SELECT COUNT(*) FROM memories_fts_docsize`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if got := storeRows(t, s); got != n || n != 3000 {
		t.Fatalf("row count %d, want %d", got, n)
	}
}

// putSQLiteVarint encodes v as SQLite's sqlite3PutVarint does.
func putSQLiteVarint(v uint64) []byte {
	if v>>56 != 0 { // nine bytes: 8 groups of 7 bits, then 8 bits
		b := make([]byte, 9)
		b[8] = byte(v)
		v >>= 8
		for i := 7; i >= 0; i-- {
			b[i] = byte(v&0x7f) | 0x80
			v >>= 7
		}
		return b
	}
	var groups []byte
	for {
		groups = append(groups, byte(v&0x7f))
		v >>= 7
		if v == 0 {
			break
		}
	}
	b := make([]byte, len(groups))
	for i := range groups {
		b[i] = groups[len(groups)-1-i] | 0x80
	}
	b[len(b)-1] &^= 0x80
	return b
}

func TestSQLiteVarint(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 240, 2287, 16383, 16384, 1 << 35, 1<<56 - 1, 1 << 56, 1<<64 - 1} {
		b := putSQLiteVarint(v)
		if got, size := sqliteVarint(append(b, 0xff, 0x01)); got != v || size != len(b) {
			t.Errorf("%d (%x): got %d, size %d", v, b, got, size)
		}
		if _, size := sqliteVarint(b[:len(b)-1]); size != 0 {
			t.Errorf("%d cut short: size %d", v, size)
		}
	}
}

// FuzzSQLiteVarint: any bytes decode without panic to a size within them,
// and the value decoded encodes and decodes back to itself.
func FuzzSQLiteVarint(f *testing.F) {
	f.Add([]byte{0x81, 0x00})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, size := sqliteVarint(b)
		if size < 0 || size > len(b) || size > 9 {
			t.Fatalf("size %d of %d bytes", size, len(b))
		}
		if size == 0 {
			return
		}
		if e := putSQLiteVarint(v); len(e) > size {
			t.Fatalf("%x decodes to %d, which encodes longer: %x", b[:size], v, e)
		}
		e := putSQLiteVarint(v)
		if got, n := sqliteVarint(e); got != v || n != len(e) {
			t.Fatalf("%d round trip: %d, %d", v, got, n)
		}
	})
}

// The pruning's estimate of a window's worst score uses the title's
// weight; it is the first of the weights the statements give bm25().
func TestTitleWeight_IsBM25sFirstWeight(t *testing.T) {
	first, _, _ := strings.Cut(bm25Weights, ",")
	w, err := strconv.ParseFloat(strings.TrimSpace(first), 64)
	if err != nil || w != titleWeight {
		t.Fatalf("bm25Weights %q begins with %q (%v); titleWeight is %v", bm25Weights, first, err, titleWeight)
	}
}

// A search's window, pruned for the limit and loaded in two steps, gives
// the hits the whole window gives when it is scored at once and loaded
// whole (the search before either), on the random stores: ties at the
// limit, a filter that rejects some of the best rows (project "p1"),
// one that rejects most ("p2"), and none.
func TestSearchWindow_SameAsWholeWindow(t *testing.T) {
	ctx := context.Background()
	var early, late, tied, pruned int
	forRandomMatches(t, 200, func(_ int, s *MemoryService, rng *rand.Rand, m ftsMatch) {
		m.first = 1 + rng.IntN(max(1, len(m.terms)-1))
		limit := []int{1, 3, 10, 40, 100}[rng.IntN(5)]
		window := limit + limit/4 + 8
		var f recall.MemoryFilter
		if p := []string{"", "p1", "p2"}[rng.IntN(3)]; p != "" {
			f.Project = &p
		}
		where, args, err := whereMemories(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.searchWindow(ctx, m, where, args, window, limit, true, false)
		if err != nil {
			t.Fatal(err)
		}
		// The whole window, loaded whole.
		ranked, err := s.rankExpr(ctx, m.expr, 0, window)
		if err != nil {
			t.Fatal(err)
		}
		all, err := s.loadHits(ctx, ranked, where, args)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(all, func(a, b *recall.SearchHit) int {
			if a.Score != b.Score {
				return -cmp.Compare(a.Score, b.Score)
			}
			return cmp.Compare(a.Memory.ID, b.Memory.ID)
		})
		want := all[:min(len(all), limit)]
		if done := len(all) >= limit || len(ranked) < window; len(got.hits) != len(want) || got.done != done {
			t.Fatalf("%s limit %d %v: %d hits (done %v), want %d (%v)", m.expr, limit, f.Project, len(got.hits), got.done, len(want), done)
		}
		for i := range want {
			if got.hits[i].Memory.ID != want[i].Memory.ID || got.hits[i].Score != want[i].Score {
				t.Fatalf("%s limit %d %v: hit %d is %s %v, want %s %v", m.expr, limit, f.Project, i, got.hits[i].Memory.ID, got.hits[i].Score, want[i].Memory.ID, want[i].Score)
			}
		}
		// The hits come from one load, so from one snapshot of the
		// memories: the limit's rows and ties, or the whole window.
		loads, last := got.loads, got.loads[len(got.loads)-1]
		if cut := tiedCut(ranked, limit); last != len(ranked) && !(len(loads) == 1 && last == cut) {
			t.Fatalf("%s limit %d %v: loads of %v rows; want the limit's %d alone, or the last the window's %d", m.expr, limit, f.Project, loads, cut, len(ranked))
		}
		if loaded := sumInts(loads); loaded < len(ranked) {
			early++
		} else {
			late++
		}
		if len(ranked) > limit && ranked[limit].rank == ranked[limit-1].rank {
			tied++
		}
		scored := 0
		for _, e := range got.exprs {
			scored += matchCount(t, s, e)
		}
		if scored < matchCount(t, s, m.expr) {
			pruned++
		}
	})
	t.Logf("loaded early %d, the whole window %d; tied at the limit %d; pruned %d", early, late, tied, pruned)
	if early < 100 || late < 100 || tied < 30 || pruned < 100 {
		t.Fatalf("loaded early %d, the whole window %d, tied %d, pruned %d: the stores do not exercise each", early, late, tied, pruned)
	}
}

func sumInts(v []int) (n int) {
	for _, x := range v {
		n += x
	}
	return n
}
