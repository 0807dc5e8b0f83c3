package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

// ownVocab mixes words that stem together (porter), words with
// diacritics (removed by the tokenizer), digits and plain words of
// every frequency.
var ownVocab = []string{
	"run", "running", "runs", "runner", "café", "cafe", "naïve", "Über", "uber",
	"connect", "connected", "connection", "x1", "2024", "data", "databases",
}

func init() {
	for i := range 40 {
		ownVocab = append(ownVocab, fmt.Sprintf("w%dx", i))
	}
}

// ownStore is a store of memories over ownVocab (word i about 1/(i+1)
// as often as word 0: some in most rows, IDF floored, others rare), with titles and tags, copies (ties) and rows
// with no token at all; word draws a word.
func ownStore(t *testing.T, seed uint64, n int) (*MemoryService, *rand.Rand, func() string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 5))
	s := NewMemoryService(openDB(t))
	word := func() string {
		for {
			i := rng.IntN(len(ownVocab))
			if rng.IntN(i+1) == 0 {
				return ownVocab[i]
			}
		}
	}
	var batch []*recall.Memory
	for i := range n {
		if i > 0 && rng.IntN(5) == 0 {
			c := *batch[rng.IntN(len(batch))]
			c.ID = ""
			batch = append(batch, &c)
			continue
		}
		batch = append(batch, ownMemory(rng, word))
	}
	if _, err := s.ImportMemories(t.Context(), batch); err != nil {
		t.Fatal(err)
	}
	return s, rng, word
}

// ownMemory is a random memory of ownStore.
func ownMemory(rng *rand.Rand, word func() string) *recall.Memory {
	text := func(n int) string {
		var w []string
		for range n {
			w = append(w, word())
		}
		return strings.Join(w, " ")
	}
	if rng.IntN(40) == 0 {
		return &recall.Memory{Content: "🙂 !!! —"} // no token: a row of length 0
	}
	m := &recall.Memory{Content: text(1 + rng.IntN(30))}
	if rng.IntN(3) == 0 {
		m.Title = text(1 + rng.IntN(4))
	}
	if rng.IntN(4) == 0 {
		m.Tags = []string{word(), word()}
	}
	return m
}

// ownMatch is the match of a query's words as a search asks it, with
// the index it is asked of.
func ownMatch(t *testing.T, s *MemoryService, text string) ftsMatch {
	t.Helper()
	terms := ftsquery.Terms(text)
	return ftsMatch{expr: quoteTerms(terms), terms: terms, rows: storeRows(t, s), index: structureRecord(t, s), averages: ftsRecord(t, s, 1)}
}

// A window scored by the process itself is bm25()'s: the same rows, in
// the same order, with the same score bits, on random stores of words
// that stem together, carry diacritics or repeat, in titles, contents
// and tags (three weights), with rows of no token, as memories are
// updated and deleted between searches; a third of the queries are one
// word scored from a random rowid on (ownRankNewest: held rows).
func TestOwnRank_SameAsBM25(t *testing.T) {
	ctx := context.Background()
	var compared, rows, unfloored, newest int
	for seed := range uint64(3) {
		s, rng, word := ownStore(t, seed, 300+200*int(seed))
		s.db.lengths.after = 1 // lengths read at the first search of each version
		ids := memoryIDs(t, s)
		for q := range 200 {
			if q%10 == 9 { // a write between searches: the lengths move on
				id := ids[rng.IntN(len(ids))]
				switch rng.IntN(3) {
				case 0:
					if err := s.DeleteMemory(ctx, id); err != nil {
						t.Fatal(err)
					}
					ids = slices.DeleteFunc(ids, func(x string) bool { return x == id })
				case 1:
					m := ownMemory(rng, word)
					if _, err := s.UpdateMemory(ctx, id, recall.MemoryUpdate{Title: &m.Title, Content: &m.Content}); err != nil {
						t.Fatal(err)
					}
				default:
					res, err := s.PutMemory(ctx, ownMemory(rng, word))
					if err != nil {
						t.Fatal(err)
					}
					ids = append(ids, res.Memory.ID)
				}
			}
			var words []string
			for range 1 + rng.IntN(4) {
				words = append(words, word())
			}
			m := ownMatch(t, s, strings.Join(words, " "))
			if q%3 == 0 { // one word from a rowid on (matchExpr's budget)
				m = ownMatch(t, s, words[0])
				m.from = 1 + rng.Int64N(int64(len(ids)))
				newest++
			}
			window := []int{1, 3, 10, 40, 133, 2000}[rng.IntN(6)]
			want, err := s.rankExpr(ctx, m.expr, m.from, window)
			if err != nil {
				t.Fatal(err)
			}
			got, ok, err := s.ownRank(ctx, m, window)
			if err == nil && !ok && m.from > 0 { // a word's first search of a version is bm25()'s
				got, ok, err = s.ownRank(ctx, m, window)
			}
			if err != nil || !ok {
				t.Fatalf("%s from %d: not scored by the process (%v, %v)", m.expr, m.from, ok, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d, %s from %d, window %d:\n got %v\nwant %v", seed, m.expr, m.from, window, got, want)
			}
			compared, rows = compared+1, rows+len(want)
			if len(want) > 0 && want[0].rank < -1 {
				unfloored++
			}
		}
	}
	if rows < 10*compared || unfloored < compared/3 || newest < compared/4 {
		t.Fatalf("%d windows compared with %d rows in all, %d scoring over 1, %d from a rowid on: the queries match too little or too much", compared, rows, unfloored, newest)
	}
}

// memoryIDs are the ids of a store's memories.
func memoryIDs(t *testing.T, s *MemoryService) []string {
	t.Helper()
	ms, _, err := s.FindMemories(t.Context(), recall.MemoryFilter{Limit: 100000})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

// The process scores a window itself only with the lengths of the index
// its statements read: after another process writes (here another pool
// on the same file), a match counted before the write is not scored by
// the process (its statements would read the new index), and the next
// search reads the lengths again; until a version has been searched
// ownLengthsAfter times, bm25() scores.
func TestOwnRank_OnlyWithTheIndexItsLengthsAreOf(t *testing.T) {
	ctx := context.Background()
	s, rng, word := ownStore(t, 7, 400)
	const text = "run cafe w1x"
	m := ownMatch(t, s, text)
	for i := range ownLengthsAfter {
		if _, ok, err := s.ownRank(ctx, m, 50); err != nil || ok != (i == ownLengthsAfter-1) {
			t.Fatalf("search %d of one version: scored by the process %v (%v)", i+1, ok, err)
		}
	}
	other := NewDB(s.db.Path)
	if err := other.Open(); err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ids := memoryIDs(t, s)
	longer := ownMemory(rng, word).Content + " run run cafe"
	if _, err := NewMemoryService(other).UpdateMemory(ctx, ids[3], recall.MemoryUpdate{Content: &longer}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.ownRank(ctx, m, 50); err != nil || ok {
		t.Fatalf("a match of the index before another process's write was scored by the process (%v, %v)", ok, err)
	}
	s.db.lengths.after = 2
	m = ownMatch(t, s, text)
	want, err := s.rankExpr(ctx, m.expr, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		got, ok, err := s.ownRank(ctx, m, 50)
		if err != nil || ok != (i == 1) {
			t.Fatalf("search %d after the write: scored by the process %v (%v)", i+1, ok, err)
		}
		if ok && !slices.Equal(got, want) {
			t.Fatalf("after the write:\n got %v\nwant %v", got, want)
		}
	}
}

// A search of a store large enough to count its words (2,000 rows) is
// scored by the process once it has searched the index ownLengthsAfter
// times, with the hits bm25() gives, and by bm25() again after a write.
func TestSearch_ScoresItselfAfterRepeatedSearches(t *testing.T) {
	ctx := context.Background()
	s, _, _ := ownStore(t, 11, 2100)
	q := recall.SearchQuery{Text: "connection runner naive", Limit: 20}
	where, args, err := whereMemories(recall.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for i := range ownLengthsAfter + 2 {
		m, err := s.matchExpr(ctx, q.Text)
		if err != nil || len(m.terms) == 0 || m.from != 0 {
			t.Fatalf("match %+v, %v", m, err)
		}
		w, err := s.searchWindow(ctx, m, where, args, 33, q.Limit, true, false)
		if err != nil {
			t.Fatal(err)
		}
		own := slices.ContainsFunc(w.exprs, func(e string) bool { return strings.HasPrefix(e, ownExpr) })
		if own != (i >= ownLengthsAfter-1) {
			t.Fatalf("search %d: %v", i+1, w.exprs)
		}
		got := hitList(w.hits)
		if i == 0 {
			want = got
		} else if got != want {
			t.Fatalf("search %d (%v):\n got %s\nwant %s", i+1, w.exprs, got, want)
		}
	}
	if _, err := s.PutMemory(ctx, &recall.Memory{Content: "connection"}); err != nil {
		t.Fatal(err)
	}
	m, err := s.matchExpr(ctx, q.Text)
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.searchWindow(ctx, m, where, args, 33, q.Limit, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(w.exprs, func(e string) bool { return strings.HasPrefix(e, ownExpr) }) {
		t.Fatalf("scored by the process at the first search after a write: %v", w.exprs)
	}
}

// hitList is a search's hits, ids and score bits, in order.
func hitList(hits []*recall.SearchHit) string {
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "%s:%x ", h.Memory.ID, h.Score)
	}
	return b.String()
}

// The tokenizer that turns query words into index terms is the one the
// store's full-text table declares.
func TestOwnRank_TokenizerIsTheStores(t *testing.T) {
	s := NewMemoryService(openDB(t))
	var sql string
	if err := s.db.read.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'memories_fts'`).Scan(&sql); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sql, "'"+ftsTokenize+"'") {
		t.Fatalf("memories_fts is %s, the query words are tokenized with %q", sql, ftsTokenize)
	}
	terms, err := indexTerms(t.Context(), []string{"Running"})
	if err != nil || len(terms) != 1 || !slices.Equal(terms[0], []string{"run"}) {
		t.Fatalf("Running: %q, %v", terms, err)
	}
}

// The readers declare the vocab tables with query_only lifted for the
// declarations only: they read them, and stay unable to write.
func TestReaders_VocabTablesAndStillQueryOnly(t *testing.T) {
	s := NewMemoryService(openDB(t))
	if _, err := s.PutMemory(t.Context(), &recall.Memory{Title: "Running", Content: "a café"}); err != nil {
		t.Fatal(err)
	}
	var on, rows int
	if err := s.db.read.QueryRow(`SELECT (SELECT query_only FROM pragma_query_only), (SELECT COUNT(*) FROM `+ftsInstances+` WHERE term = 'run')`).Scan(&on, &rows); err != nil {
		t.Fatal(err)
	}
	if on != 1 || rows != 1 {
		t.Fatalf("reader: query_only %d, %d instances of run", on, rows)
	}
	if _, err := s.db.read.Exec(`CREATE TEMP TABLE x(y)`); err == nil {
		t.Fatal("a reader wrote its temp schema")
	}
	if _, err := s.db.read.Exec(`DELETE FROM memories`); err == nil {
		t.Fatal("a reader deleted the memories")
	}
}

// Searches scored at once on several goroutines (as under 'recall
// serve') share the held lengths and words and get bm25()'s windows.
func TestOwnRank_ConcurrentSearches(t *testing.T) {
	ctx := context.Background()
	s, rng, word := ownStore(t, 3, 500)
	s.db.lengths.after = 1
	type query struct {
		m    ftsMatch
		want []rankedRow
	}
	var qs []query
	for i := range 40 {
		m := ownMatch(t, s, word()+" "+word())
		if i%2 == 0 {
			m = ownMatch(t, s, word())
			m.from = 1 + rng.Int64N(400)
		}
		want, err := s.rankExpr(ctx, m.expr, m.from, 60)
		if err != nil {
			t.Fatal(err)
		}
		qs = append(qs, query{m, want})
		// Once here, twice for a word from a rowid on: the lengths are
		// read and the word's rows held before the goroutines start
		// (while a read runs, the others score with bm25()).
		for range 2 {
			if _, _, err := s.ownRank(ctx, m, 60); err != nil {
				t.Fatal(err)
			}
		}
	}
	errs := make(chan error, 8)
	var own atomic.Int64
	for g := range 8 {
		go func() {
			for i := range 100 {
				q := qs[(g*7+i)%len(qs)]
				got, ok, err := s.ownRank(ctx, q.m, 60)
				switch {
				case err != nil:
					errs <- err
					return
				case ok && !slices.Equal(got, q.want):
					errs <- fmt.Errorf("%s from %d: got %v, want %v", q.m.expr, q.m.from, got, q.want)
					return
				case ok:
					own.Add(1)
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if own.Load() != 800 {
		t.Fatalf("%d of 800 searches scored by the process", own.Load())
	}
}
