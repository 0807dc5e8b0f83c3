package rank

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/recall-mem/recall"
)

func cand(id string, score float64) *candidate {
	return &candidate{m: &recall.Memory{ID: id, Content: id}, score: score, adjust: map[string]float64{}}
}

func TestAttach(t *testing.T) {
	a, b := cand("a", 1), cand("b", 0.5)
	// context of a: one scoring above b (shown before it), one below;
	// context of x, which is not a hit, is never shown.
	ctxHigh, ctxLow, orphan := cand("a+1", 0.7), cand("a-1", 0.2), cand("x+1", 0.9)
	ctxHigh.via, ctxHigh.offset = "a", 1
	ctxLow.via, ctxLow.offset = "a", -1
	orphan.via, orphan.offset = "x", 1
	layout := func(limit int) [][]string {
		var out [][]string
		for _, s := range attach([]*candidate{a, b}, []*candidate{orphan, ctxHigh, ctxLow}, limit) {
			row := []string{s.hit.m.ID}
			for _, c := range s.context {
				row = append(row, c.m.ID)
			}
			out = append(out, row)
		}
		return out
	}
	for _, tt := range []struct {
		limit int
		want  [][]string
	}{
		{1, [][]string{{"a"}}},
		{2, [][]string{{"a", "a+1"}}},
		{3, [][]string{{"a", "a+1"}, {"b"}}},
		// under its hit, context is in recorded order
		{10, [][]string{{"a", "a-1", "a+1"}, {"b"}}},
	} {
		if diff := cmp.Diff(tt.want, layout(tt.limit)); diff != "" {
			t.Errorf("limit %d (-want +got):\n%s", tt.limit, diff)
		}
	}
}

func TestAsContext(t *testing.T) {
	a, b := cand("a", 1), cand("b", 0.5)
	next := cand("a+1", 0.6) // borrowed more than b has of its own
	next.via, next.offset = "a", 1
	var got []string
	for _, s := range attach([]*candidate{a, b}, asContext([]*candidate{next}, 0.7), 2) {
		got = append(got, s.hit.m.ID)
		for _, c := range s.context {
			got = append(got, c.m.ID)
		}
	}
	if want := []string{"a", "b"}; !cmp.Equal(got, want) {
		t.Errorf("at share 0.7, top 2 = %v, want %v: the context memory (0.6 × 0.7) ranks under the hit b (0.5)", got, want)
	}
	if next.score != 0.6*0.7 || next.adjust["context"] != 0.7 {
		t.Errorf("score %v, adjust %v: the share is applied and shown", next.score, next.adjust)
	}
}

func TestFollows(t *testing.T) {
	for _, tt := range []struct {
		name   string
		via    string
		offset int
		want   bool
	}{
		{"the reply after a hit", "a", 1, true},
		{"two turns after", "a", 2, true},
		{"the turn before a hit", "a", -1, false},
		{"borrowed from nothing", "", 0, false},
	} {
		c := cand("c", 0.5)
		c.via, c.offset = tt.via, tt.offset
		if got := follows(c); got != tt.want {
			t.Errorf("%s: follows = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestHasEvidence(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    candidate
		want bool
	}{
		{"full-text match", candidate{bm25Rank: 3}, true},
		{"vector above floor", candidate{vectorRank: 1, vector: 0.4}, true},
		{"vector below floor", candidate{vectorRank: 1, vector: 0.1}, false},
		{"context only", candidate{neighbor: 0.4, episode: 0.3}, false},
	} {
		if got := hasEvidence(&tt.c, 0.2); got != tt.want {
			t.Errorf("%s: hasEvidence = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestVectorFloor(t *testing.T) {
	if got := VectorFloor("builtin-hash-v1"); got != vectorFloors["builtin-hash-v1"] {
		t.Errorf("builtin floor = %v", got)
	}
	if got := VectorFloor("builtin-hash-v1-128"); got != vectorFloors["builtin-hash-v1"] {
		t.Errorf("builtin floor at another dimension = %v", got)
	}
	if got := VectorFloor("text-embedding-3-small"); got != DefaultVectorFloor {
		t.Errorf("uncalibrated model floor = %v, want %v", got, DefaultVectorFloor)
	}
}

// The score shown is the order shown: a near-duplicate MMR moves down
// loses score accordingly.
func TestDiversifyScoresFall(t *testing.T) {
	a, dup, other := cand("a", 1), cand("b", 0.99), cand("c", 0.95)
	a.m.Content, dup.m.Content, other.m.Content = "deploy through staging first", "deploy through staging first!", "postgres replica nightly"
	got := diversify([]*candidate{a, dup, other}, 0.9, 3)
	ids := []string{got[0].m.ID, got[1].m.ID, got[2].m.ID}
	if diff := cmp.Diff([]string{"a", "c", "b"}, ids); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
	for i := 1; i < len(got); i++ {
		if got[i].score > got[i-1].score {
			t.Errorf("score %d (%v) above score %d (%v)", i, got[i].score, i-1, got[i-1].score)
		}
	}
	if got[2].adjust["-duplicate"] <= 0 {
		t.Errorf("the duplicate's explain has no -duplicate share: %v", got[2].adjust)
	}
}

func TestCut(t *testing.T) {
	list := []*candidate{cand("a", 1), cand("b", 0.3), cand("c", 0.05)}
	if got := cut(list, 0.1); len(got) != 2 {
		t.Errorf("cut at 0.1 kept %d, want 2", len(got))
	}
	if got := cut(list, 0); len(got) != 3 {
		t.Errorf("cut at 0 kept %d, want 3", len(got))
	}
}

func TestQueryNames(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want []string
	}{
		{"What did Caroline research?", []string{"caroline"}},
		{"When did Melanie's kids visit? Where did Jon go", []string{"melanie", "jon"}},
		{"Caroline went where", nil}, // a sentence's first word says nothing
		{"how does the Recall hook work with Postgres", []string{"recall", "postgres"}},
		{"what did I say about The plan", nil}, // stopwords are never names
	} {
		got := []string{}
		for n := range queryNames(tt.q) {
			got = append(got, n)
		}
		want := tt.want
		if want == nil {
			want = []string{}
		}
		if diff := cmp.Diff(want, got, cmpSorted); diff != "" {
			t.Errorf("queryNames(%q) (-want +got):\n%s", tt.q, diff)
		}
	}
}

var cmpSorted = cmpopts.SortSlices(func(a, b string) bool { return a < b })

func TestNamesMatch(t *testing.T) {
	meta, _ := json.Marshal(map[string]any{"speaker": "Caroline", "participants": []string{"Jon Smith"}, "session": 3})
	m := &recall.Memory{Content: "I went to a support group", Metadata: meta, Project: "billing-api", Tags: []string{"postgres"}, CreatedBy: "ana"}
	for _, tt := range []struct {
		names []string
		want  bool
	}{
		{[]string{"caroline"}, true},
		{[]string{"smith"}, true}, // a word of a metadata value
		{[]string{"billing"}, true},
		{[]string{"postgres"}, true},
		{[]string{"ana"}, true},
		{[]string{"melanie"}, false},
		{[]string{"support"}, false}, // the text is matched by search, not here
		{nil, false},
	} {
		names := map[string]bool{}
		for _, n := range tt.names {
			names[n] = true
		}
		if got := namesMatch(m, names); got != tt.want {
			t.Errorf("namesMatch(%v) = %v, want %v", tt.names, got, tt.want)
		}
	}
}

// FuzzQueryNames: any query yields lower-case names without stopwords,
// each a word of the query.
func FuzzQueryNames(f *testing.F) {
	for _, s := range []string{"What did Caroline research?", "When did Melanie's kids visit? Where did Jon go", "", "A. B! C? d’s É", "'s ’s . ? !"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		for n := range queryNames(q) {
			if n == "" || stopwords[n] {
				t.Fatalf("queryNames(%q) gave %q", q, n)
			}
			if !strings.Contains(strings.ToLower(q), n) {
				t.Fatalf("queryNames(%q) gave %q, not in the query", q, n)
			}
		}
	})
}
