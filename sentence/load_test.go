package sentence

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"testing"
	"unicode/utf16"
)

// jsonTokenizer builds the tokenizer the way it was built before the
// vocabulary scanner: encoding/json into interfaces, widths through
// utf16.Encode. The scanner must give the same tables.
func jsonTokenizer(t *testing.T, vocab []byte) *Tokenizer {
	t.Helper()
	var raw [][2]any
	if err := json.Unmarshal(vocab, &raw); err != nil {
		t.Fatal(err)
	}
	tok := &Tokenizer{pieces: map[string]piece{}, width: make([]int, len(raw))}
	for id, pair := range raw {
		s, _ := pair[0].(string)
		score, _ := pair[1].(float64)
		tok.width[id] = max(1, len(utf16.Encode([]rune(s))))
		if id < reserved {
			continue
		}
		tok.pieces[s] = piece{id: id, score: score}
		tok.maxLen = max(tok.maxLen, len([]rune(s)))
	}
	return tok
}

func TestVocabScannerMatchesJSON(t *testing.T) {
	for _, vocab := range [][]byte{
		vocabFile,
		[]byte(` [ ["\u00e9\"a\\", null] , ["\ud83d\ude00x", -1.5e2],["b\u0000", 3], ["bad` + "\xff" + `utf8", 0.25], ["a/b\/c", -0] ] `),
	} {
		got, err := NewTokenizer(vocab)
		if err != nil {
			t.Fatal(err)
		}
		want := jsonTokenizer(t, vocab)
		if !maps.Equal(got.pieces, want.pieces) || !slices.Equal(got.width, want.width) || got.maxLen != want.maxLen {
			t.Errorf("scanner and encoding/json disagree on %.60q", vocab)
		}
	}
}

func TestVocabScannerRejectsDamage(t *testing.T) {
	for _, b := range []string{"", "[", `[["a",1]`, `[["a"]]`, `[["a",1],]`, `[["a",x]]`, `[[1,1]]`, `[["a",1]] x`, `[["a` + "\n" + `",1]]`, `[["a",1.]]`} {
		if _, err := NewTokenizer([]byte(b)); err == nil {
			t.Errorf("NewTokenizer(%q) succeeded, want an error", b)
		}
	}
}

// TestLoadMatchesDecodedWeights checks the load path (embedding table
// and layers read in place, the layers' int8 rows widened as a query
// reaches them) against the model built
// from DecodeWeights, which decodes every tensor: every vector of the
// reference sentences must be bit for bit the same.
func TestLoadMatchesDecodedWeights(t *testing.T) {
	w, err := DecodeWeights(weightFile)
	if err != nil {
		t.Fatal(err)
	}
	old, err := NewModel(w)
	if err != nil {
		t.Fatal(err)
	}
	if old.emb.data == nil {
		t.Fatal("DecodeWeights kept the embedding table in place")
	}
	e := &Encoder{}
	if err := e.Load(); err != nil {
		t.Fatal(err)
	}
	if e.model.emb.data != nil || e.model.emb.q == nil {
		t.Fatal("Load decoded the embedding table instead of reading it in place")
	}
	for _, l := range e.model.linears() {
		if l.wt != nil || l.q == nil {
			t.Fatalf("Load decoded a %d × %d layer instead of reading it in place", l.out, l.in)
		}
	}
	oldTok := jsonTokenizer(t, vocabFile)
	for _, r := range loadReferences(t) {
		ids := e.tok.Encode(r.Text)
		if want := oldTok.Encode(r.Text); !slices.Equal(ids, want) {
			t.Fatalf("Encode(%q) = %v, want %v", r.Text, ids, want)
		}
		got, want := e.model.Forward(ids), old.Forward(ids)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("Forward(%q)[%d] = %v, want %v (bit for bit)", r.Text, i, got[i], want[i])
			}
		}
	}
}
