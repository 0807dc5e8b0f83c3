package sentence

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"
)

// reference is one sentence run through the original model in node
// (testdata/reference/reference.js).
type reference struct {
	Text   string    `json:"text"`
	IDs    []int     `json:"ids"`
	Vector []float32 `json:"vector"`
	Error  string    `json:"error"`
}

func loadReferences(t testing.TB) []reference {
	t.Helper()
	b, err := os.ReadFile("testdata/reference/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs []reference
	if err := json.Unmarshal(b, &refs); err != nil {
		t.Fatal(err)
	}
	if len(refs) < 50 {
		t.Fatalf("only %d reference sentences", len(refs))
	}
	return refs
}

func TestTokenizerMatchesOriginal(t *testing.T) {
	e := Default()
	for _, r := range loadReferences(t) {
		got, err := e.Tokens(r.Text)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, r.IDs) && !(len(got) == 0 && len(r.IDs) == 0) {
			t.Errorf("Tokens(%q)\n got %v\nwant %v", r.Text, got, r.IDs)
		}
	}
}

func TestEncoderMatchesOriginal(t *testing.T) {
	e := Default()
	refs := loadReferences(t)
	texts := make([]string, len(refs))
	for i, r := range refs {
		texts[i] = r.Text
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	worst, sum, n := 1.0, 0.0, 0
	for i, r := range refs {
		if r.Error != "" {
			// The original cannot embed a text without tokens; ours
			// gives the zero vector, which matches nothing.
			if length(vecs[i]) != 0 {
				t.Errorf("Embed(%q) = non-zero vector, want zero (no tokens)", r.Text)
			}
			continue
		}
		c := cosine(vecs[i], r.Vector)
		worst, sum, n = min(worst, c), sum+c, n+1
		if c < 0.99 {
			t.Errorf("Embed(%q): cosine to the original %.4f, want ≥ 0.99", r.Text, c)
		}
	}
	t.Logf("%s: cosine to the original over %d sentences: mean %.6f, worst %.6f", ModelName, n, sum/float64(n), worst)
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

func length(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}
