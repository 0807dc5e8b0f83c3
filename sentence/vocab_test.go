package sentence

import (
	_ "embed"
	"flag"
	"hash/fnv"
	"os"
	"slices"
	"strings"
	"testing"
)

// vocabFile is the tokenizer's vocabulary as the model ships it; the
// binary embeds only the table built from it.
//
//go:embed model/vocab.json
var vocabFile []byte

var update = flag.Bool("update", false, "rewrite the generated files: model/vocab.bin from model/vocab.json, testdata/vector_bits.txt")

// The embedded table is the one buildVocabTable makes from vocab.json,
// and the tokenizer over it finds every piece the map does, with the same
// id, score and width, and nothing else.
func TestVocabTableMatchesJSON(t *testing.T) {
	want, err := buildVocabTable(vocabFile)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("model/vocab.bin", want, 0o644); err != nil {
			t.Fatal(err)
		}
		vocabTableFile = want
	}
	if string(vocabTableFile) != string(want) {
		t.Fatal("model/vocab.bin is not the table of model/vocab.json: rewrite it with `go test ./sentence -run TestVocabTable -update`")
	}
	tab, err := newTableTokenizer(vocabTableFile)
	if err != nil {
		t.Fatal(err)
	}
	js := jsonTokenizer(t, vocabFile)
	if tab.maxLen != js.maxLen || !slices.Equal(tab.width, js.width) {
		t.Fatalf("maxLen %d / %d or widths differ", tab.maxLen, js.maxLen)
	}
	for s, p := range js.pieces {
		if got, ok := tab.lookup(s); !ok || got != p {
			t.Fatalf("lookup(%q) = %v %v, want %v", s, got, ok, p)
		}
		for _, other := range []string{s + "\u2581", "x" + s, s[:len(s)-1]} {
			_, inMap := js.pieces[other]
			if _, ok := tab.lookup(other); ok != inMap {
				t.Fatalf("lookup(%q) found %v, the map %v", other, ok, inMap)
			}
		}
	}
	for id := range reserved { // never matched, as in the map
		p := readPiece(t, tab, id)
		if got, ok := tab.lookup(p); ok && got.id == id {
			t.Fatalf("reserved piece %d (%q) is looked up", id, p)
		}
	}
	// Both tokenizers cut the same texts the same way.
	texts := []string{"", " ", "Hello, world!", "naïve café — ﬁne", "😀 emoji and \u00a0spaces", strings.Repeat("deploy the canary ", 20)}
	for _, r := range loadReferences(t) {
		texts = append(texts, r.Text)
	}
	for _, s := range texts {
		if got, want := tab.Encode(s), js.Encode(s); !slices.Equal(got, want) {
			t.Fatalf("Encode(%q) = %v, want %v", s, got, want)
		}
	}
}

func readPiece(t *testing.T, tab *Tokenizer, id int) string {
	t.Helper()
	vt := tab.table
	return string(vt.pieces[vt.offset(id):vt.offset(id+1)])
}

// pieceHash is FNV-1a, as hash/fnv has it.
func TestPieceHashIsFNV1a(t *testing.T) {
	for _, s := range []string{"", "a", "\u2581the", "ﬁ😀"} {
		h := fnv.New32a()
		h.Write([]byte(s))
		if got := pieceHash(s); got != h.Sum32() {
			t.Errorf("pieceHash(%q) = %x, want %x", s, got, h.Sum32())
		}
	}
}

// A damaged table is refused, not read out of bounds or looped over.
func TestVocabTableRejectsDamage(t *testing.T) {
	good := vocabTableFile
	full := append([]byte(nil), good...)
	head := len(vocabMagic) + 16
	for i := head; i < head+2*16384 && i+1 < len(full); i += 2 {
		full[i], full[i+1] = 1, 0 // every slot taken
	}
	for name, b := range map[string][]byte{
		"empty":      nil,
		"magic":      append([]byte("X"), good[1:]...),
		"cut short":  good[:len(good)-1],
		"one more":   append(append([]byte(nil), good...), 0),
		"header":     good[:head],
		"full table": full,
	} {
		if _, err := newTableTokenizer(b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// FuzzVocabTable: a damaged table is refused or read, never a panic, and
// a table that is read tokenizes without one.
func FuzzVocabTable(f *testing.F) {
	f.Add(vocabTableFile)
	f.Add(vocabTableFile[:len(vocabTableFile)/2])
	f.Add([]byte(vocabMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		tok, err := newTableTokenizer(b)
		if err != nil {
			return
		}
		tok.Encode("Hello, wörld: the deploy failed at 3pm")
	})
}
