package sentence

import (
	"strings"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"
)

// wordStart is SentencePiece's word boundary mark (U+2581).
const wordStart = "\u2581"

// reserved is how many leading vocabulary entries (unknown, <s>, </s>,
// three extras) never match text.
const reserved = 6

// unknownID is the id of a character no piece covers.
const unknownID = 0

// Tokenizer is the SentencePiece unigram tokenizer of USE Lite, as the
// TF.js port runs it: NFKC, '▁' before the text and for every space, then
// the best-scoring segmentation into vocabulary pieces. Its quirks are
// kept on purpose, because the model was run (and its reference vectors
// made) with them: ties go to the later-starting piece, a position whose
// best score is still exactly 0 is treated as unset, the walk back steps
// by a piece's UTF-16 length, and runs of unknown characters collapse
// into one unknown id.
type Tokenizer struct {
	pieces map[string]piece // built from vocab.json, or
	table  *vocabTable      // read in place from the vocabulary table
	width  []int            // per id: the piece's length in UTF-16 units
	maxLen int              // longest piece, in runes
}

// lookup finds a piece of the vocabulary.
func (t *Tokenizer) lookup(s string) (piece, bool) {
	if t.table != nil {
		return t.table.lookup(s)
	}
	p, ok := t.pieces[s]
	return p, ok
}

type piece struct {
	id    int
	score float64
}

// NewTokenizer reads vocab.json: an array of [piece, score] pairs whose
// position is the id.
func NewTokenizer(vocabJSON []byte) (*Tokenizer, error) {
	entries, err := parseVocab(vocabJSON)
	if err != nil {
		return nil, err
	}
	t := &Tokenizer{pieces: make(map[string]piece, len(entries)), width: make([]int, len(entries))}
	for id, e := range entries {
		runes, units := 0, 0
		for _, r := range e.piece { // invalid UTF-8 reads as U+FFFD, as []rune has it
			runes++
			units += max(1, utf16.RuneLen(r))
		}
		t.width[id] = max(1, units) // at least 1: the walk back must move
		if id < reserved {
			continue
		}
		t.pieces[e.piece] = piece{id: id, score: e.score}
		t.maxLen = max(t.maxLen, runes)
	}
	return t, nil
}

// candidate is a piece of the lattice ending at some position.
type candidate struct {
	start int
	piece
}

// Encode returns the piece ids of text; an empty text has none.
func (t *Tokenizer) Encode(text string) []int {
	text = norm.NFKC.String(text)
	if text == "" {
		return nil
	}
	runes := []rune(wordStart + strings.ReplaceAll(text, " ", wordStart))
	n := len(runes)

	// ending[e] lists the pieces ending at e, by ascending start.
	ending := make([][]candidate, n+1)
	var b strings.Builder
	for i := range n {
		found := false
		b.Reset()
		for l := 1; l <= t.maxLen && i+l <= n; l++ {
			b.WriteRune(runes[i+l-1])
			if p, ok := t.lookup(b.String()); ok {
				ending[i+l] = append(ending[i+l], candidate{start: i, piece: p})
				found = true
			}
		}
		if !found {
			ending[i+1] = append(ending[i+1], candidate{start: i, piece: piece{id: unknownID}})
		}
	}
	// Pieces were added by ascending start already: the outer loop is
	// over starts.
	best := make([]float64, n+1)
	words := make([]int, n+1)
	for e := 0; e <= n; e++ {
		for _, c := range ending[e] {
			score := c.score + best[c.start]
			if best[e] == 0 || score >= best[e] {
				best[e], words[e] = score, c.id
			}
		}
	}
	var ids []int
	for i := n; i > 0; i -= t.width[words[i]] {
		id := words[i]
		if id == unknownID && len(ids) > 0 && ids[len(ids)-1] == unknownID {
			continue
		}
		ids = append(ids, id)
	}
	for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
		ids[i], ids[j] = ids[j], ids[i]
	}
	return ids
}
