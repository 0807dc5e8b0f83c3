package rank

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall"
)

func TestQueryWords(t *testing.T) {
	// a lookup is told by every word; a memory matches by the words
	// full-text search looks for
	if diff := cmp.Diff([]string{"are", "the", "cherri", "dark"}, queryWords("Are the cherries dark?")); diff != "" {
		t.Errorf("queryWords (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"cherri", "dark"}, matchWords("Are the cherries dark?")); diff != "" {
		t.Errorf("matchWords (-want +got):\n%s", diff)
	}
}

func TestFold(t *testing.T) {
	for w, want := range map[string]string{
		"cherries": "cherri", "cherry": "cherri", // one word, plural or not
		"caresses": "caress", "caress": "caress",
		"ponies": "poni", "pony": "poni",
		"cats": "cat", "cat": "cat",
		"sky":        "sky", // no vowel before the y: left as the stemmer leaves it
		"s":          "s",
		"researcher": "researcher", "research": "research", // only plurals fold
		"café": "café",
	} {
		if got := fold(w); got != want {
			t.Errorf("fold(%q) = %q, want %q", w, got, want)
		}
	}
}

func memoryCand(id, content string) *candidate {
	return &candidate{m: &recall.Memory{ID: id, Content: content}, adjust: map[string]float64{}}
}

func TestLookup(t *testing.T) {
	cherries, apples := memoryCand("c", "Charlie cherries are dark"), memoryCand("a", "Alpha apples are red")
	for _, tt := range []struct {
		name       string
		mode       string
		query      string
		bm25First  *candidate // nil: no full-text match
		vectorRank map[*candidate]int
		want       bool
	}{
		{"vector: the nearest memory holds the word", recall.ModeVector, "cherries", nil, map[*candidate]int{cherries: 1, apples: 2}, true},
		{"vector: held in another number", recall.ModeVector, "cherry", nil, map[*candidate]int{cherries: 1, apples: 2}, true},
		{"vector: a question is no lookup", recall.ModeVector, "what are the cherries", nil, map[*candidate]int{cherries: 1}, false},
		{"vector: stopwords held too", recall.ModeVector, "cherries are dark", nil, map[*candidate]int{cherries: 1}, true},
		{"vector: only the nearest memory tells", recall.ModeVector, "cherries", nil, map[*candidate]int{apples: 1, cherries: 2}, false},
		{"vector: a word the nearest memory lacks", recall.ModeVector, "dark cherries pie", nil, map[*candidate]int{cherries: 1}, false},
		{"vector: nothing near", recall.ModeVector, "cherries", nil, nil, false},
		{"vector: the BM25 rank is not looked at", recall.ModeVector, "cherries", cherries, map[*candidate]int{apples: 1}, false},
		{"hybrid: the first full-text match holds every word", recall.ModeHybrid, "cherries dark", cherries, map[*candidate]int{apples: 1, cherries: 2}, true},
		{"hybrid: the nearest memory is not looked at", recall.ModeHybrid, "cherries", nil, map[*candidate]int{cherries: 1}, false},
		{"hybrid: a word the first match lacks", recall.ModeHybrid, "red cherries", cherries, nil, false},
	} {
		cands := map[string]*candidate{}
		for _, c := range []*candidate{cherries, apples} {
			c.bm25Rank, c.vectorRank = 0, tt.vectorRank[c]
			cands[c.m.ID] = c
		}
		if tt.bm25First != nil {
			tt.bm25First.bm25Rank = 1
		}
		if got := lookup(cands, tt.mode, queryWords(tt.query)); got != tt.want {
			t.Errorf("%s: lookup(%q) = %v, want %v", tt.name, tt.query, got, tt.want)
		}
	}
}

func TestLexical(t *testing.T) {
	words := matchWords("cherry")
	cherries, apples := memoryCand("c", "Charlie cherries are dark"), memoryCand("a", "Alpha apples are red")
	if !lexical(cherries, recall.ModeVector, words) || lexical(apples, recall.ModeVector, words) {
		t.Errorf("vector mode: the memory holding the word is lexical, the other is not")
	}
	// the title and tags are held as full text holds them
	titled := memoryCand("t", "Dark and sweet.")
	titled.m.Title, titled.m.Tags = "Orchard notes", []string{"cherries"}
	if !lexical(titled, recall.ModeVector, words) {
		t.Errorf("vector mode: a memory tagged with the word is lexical")
	}
	// with full text, a full-text match is what counts
	apples.bm25Rank = 2
	if lexical(cherries, recall.ModeHybrid, words) || !lexical(apples, recall.ModeHybrid, words) {
		t.Errorf("hybrid mode: lexical follows the BM25 rank")
	}
}

// fruit is the store of issue 14: four facts put minutes apart, and the
// cosines the built-in encoder gives them for "cherries" (the other fruit
// pass its 0.35 floor: near neighbours of the topic).
type fruit struct{ ms []*recall.Memory }

var fruitCosines = map[string]float64{"cherries": 0.59, "apples": 0.475, "bananas": 0.42, "dates": 0.37}

func newFruit() fruit {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	var f fruit
	for i, text := range []string{"Alpha apples are red", "Bravo bananas are yellow", "Charlie cherries are dark", "Delta dates are sweet"} {
		f.ms = append(f.ms, &recall.Memory{ID: strings.Fields(text)[1], Content: text, Type: "fact", OccurredAt: at.Add(time.Duration(i) * 10 * time.Minute), Confidence: 1})
	}
	return f
}

// Search is the full-text side: memories holding a word of the query.
func (f fruit) Search(_ context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	var out []*recall.SearchHit
	for _, m := range f.ms {
		have := heldWords(m)
		for _, w := range matchWords(q.Text) {
			if have[w] {
				out = append(out, &recall.SearchHit{Memory: m, Score: 1, Snippet: m.Content})
				break
			}
		}
	}
	return out, nil
}

// SearchVectors gives every fruit its cosine for a query about cherries,
// and nothing passes the floor for any other query.
func (f fruit) SearchVectors(_ context.Context, text string, _ int) ([]recall.VectorHit, error) {
	var out []recall.VectorHit
	for _, id := range []string{"cherries", "apples", "bananas", "dates"} {
		cos := fruitCosines[id]
		if !strings.Contains(text, "cherr") {
			cos /= 4
		}
		out = append(out, recall.VectorHit{MemoryID: id, Score: cos})
	}
	return out, nil
}

type fruitMemories struct {
	recall.MemoryService
	fruit
}

func (f fruitMemories) FindMemories(_ context.Context, filter recall.MemoryFilter) ([]*recall.Memory, int, error) {
	var out []*recall.Memory
	for _, m := range f.ms {
		for _, id := range filter.IDs {
			if m.ID == id {
				out = append(out, m)
			}
		}
	}
	return out, len(out), nil
}

// The fruit store answers "cherries" with one hit and "zebra" with none,
// in every mode; in vector mode the other fruit, over the floor, are
// refused because the nearest memory holds the query word for word.
func TestSearchFruit(t *testing.T) {
	f := newFruit()
	opts := DefaultOptions()
	opts.VectorFloor = 0.35
	s := &Searcher{Text: f, Vectors: f, Memories: fruitMemories{fruit: f}, Options: opts}
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	search := func(mode, query string) []string {
		t.Helper()
		hits, err := s.Search(context.Background(), recall.SearchQuery{Text: query, Mode: mode, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Memory.ID)
		}
		return got
	}
	for _, mode := range []string{recall.ModeHybrid, recall.ModeBM25, recall.ModeVector} {
		for query, want := range map[string][]string{"cherries": {"cherries"}, "cherry": {"cherries"}, "zebra": nil} {
			if diff := cmp.Diff(want, search(mode, query)); diff != "" {
				t.Errorf("%s %q (-want +got):\n%s", mode, query, diff)
			}
		}
	}
	hits, err := s.Search(context.Background(), recall.SearchQuery{Text: "cherries", Mode: recall.ModeVector, Now: now, Explain: true})
	if err != nil || len(hits) != 1 || !strings.Contains(hits[0].Explain.Note, "keyword lookup") {
		t.Errorf("explain says a lookup took the hits: %v %+v", err, hits)
	}
	// Not a lookup (no memory holds all three words): a vector match over
	// the floor is a hit of its own.
	if got := search(recall.ModeVector, "dark red cherries"); !slices.Contains(got, "apples") {
		t.Errorf("vector mode, a query no memory holds whole: %v, want apples (cosine 0.475) among them", got)
	}
}
