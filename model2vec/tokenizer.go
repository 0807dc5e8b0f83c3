package model2vec

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode"
)

// tokenizer reads the subset of Hugging Face tokenizer.json that model2vec
// models ship: a WordPiece model (BERT-style vocabularies, the common case)
// or a Unigram model (SentencePiece-style), with lower-casing and BERT,
// whitespace or Metaspace pre-tokenisation. Special tokens are never
// added: model2vec pools the text's own tokens only.
type tokenizer struct {
	kind      string // WordPiece or Unigram
	lowercase bool
	metaspace bool // words carry a "▁" prefix (SentencePiece)
	vocab     map[string]int
	unk       int // -1 when the vocabulary has no unknown token

	// WordPiece
	prefix   string
	maxChars int

	// Unigram
	scores   []float64 // by id
	maxPiece int       // longest piece, in runes
}

type tokenizerFile struct {
	Normalizer   any             `json:"normalizer"`
	PreTokenizer any             `json:"pre_tokenizer"`
	Model        json.RawMessage `json:"model"`
}

type wordPieceModel struct {
	Type     string         `json:"type"`
	Vocab    map[string]int `json:"vocab"`
	Unk      string         `json:"unk_token"`
	Prefix   *string        `json:"continuing_subword_prefix"`
	MaxChars int            `json:"max_input_chars_per_word"`
}

type unigramModel struct {
	Type  string            `json:"type"`
	Vocab []json.RawMessage `json:"vocab"`
	UnkID *int              `json:"unk_id"`
}

func parseTokenizer(buf []byte) (*tokenizer, error) {
	var f tokenizerFile
	if err := json.Unmarshal(buf, &f); err != nil {
		return nil, fmt.Errorf("tokenizer.json: %w", err)
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(f.Model, &head); err != nil {
		return nil, fmt.Errorf("tokenizer.json model: %w", err)
	}
	t := &tokenizer{kind: head.Type, unk: -1}
	t.lowercase = hasType(f.Normalizer, "Lowercase") || hasBertLowercase(f.Normalizer)
	t.metaspace = hasType(f.PreTokenizer, "Metaspace")
	switch head.Type {
	case "WordPiece":
		var m wordPieceModel
		if err := json.Unmarshal(f.Model, &m); err != nil {
			return nil, fmt.Errorf("tokenizer.json WordPiece model: %w", err)
		}
		t.vocab, t.prefix, t.maxChars = m.Vocab, "##", m.MaxChars
		if m.Prefix != nil {
			t.prefix = *m.Prefix
		}
		if t.maxChars <= 0 {
			t.maxChars = 100
		}
		if id, ok := m.Vocab[m.Unk]; ok && m.Unk != "" {
			t.unk = id
		}
	case "Unigram":
		var m unigramModel
		if err := json.Unmarshal(f.Model, &m); err != nil {
			return nil, fmt.Errorf("tokenizer.json Unigram model: %w", err)
		}
		t.vocab = make(map[string]int, len(m.Vocab))
		t.scores = make([]float64, len(m.Vocab))
		for id, raw := range m.Vocab {
			var pair [2]any
			if err := json.Unmarshal(raw, &pair); err != nil {
				return nil, fmt.Errorf("tokenizer.json Unigram entry %d: %w", id, err)
			}
			piece, ok1 := pair[0].(string)
			score, ok2 := pair[1].(float64)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("tokenizer.json Unigram entry %d is not [piece, score]", id)
			}
			t.vocab[piece], t.scores[id] = id, score
			t.maxPiece = max(t.maxPiece, len([]rune(piece)))
		}
		if m.UnkID != nil && *m.UnkID >= 0 && *m.UnkID < len(m.Vocab) {
			t.unk = *m.UnkID
		}
	default:
		return nil, fmt.Errorf("tokenizer model %q is not supported: use a model2vec model with a WordPiece or Unigram tokenizer", head.Type)
	}
	if len(t.vocab) == 0 {
		return nil, fmt.Errorf("tokenizer.json has an empty vocabulary")
	}
	return t, nil
}

// hasType reports whether a normalizer or pre-tokenizer tree contains a
// component of this type (they nest in Sequence components).
func hasType(node any, typ string) bool {
	switch n := node.(type) {
	case map[string]any:
		if n["type"] == typ {
			return true
		}
		for _, v := range n {
			if hasType(v, typ) {
				return true
			}
		}
	case []any:
		for _, v := range n {
			if hasType(v, typ) {
				return true
			}
		}
	}
	return false
}

func hasBertLowercase(node any) bool {
	switch n := node.(type) {
	case map[string]any:
		if n["type"] == "BertNormalizer" {
			lc, ok := n["lowercase"].(bool)
			return !ok || lc // BERT lower-cases unless told not to
		}
		for _, v := range n {
			if hasBertLowercase(v) {
				return true
			}
		}
	case []any:
		for _, v := range n {
			if hasBertLowercase(v) {
				return true
			}
		}
	}
	return false
}

// encode appends the token ids of text to dst, unknown tokens left out.
func (t *tokenizer) encode(text string, dst []int) []int {
	if t.lowercase {
		text = strings.ToLower(text)
	}
	for _, w := range t.words(text) {
		if t.kind == "WordPiece" {
			dst = t.wordPiece(w, dst)
		} else {
			dst = t.unigram(w, dst)
		}
	}
	return dst
}

// words splits text at white space and around punctuation and CJK
// characters, as BERT's pre-tokenizer does; with Metaspace each word
// gets the "▁" prefix.
func (t *tokenizer) words(text string) []string {
	var out []string
	start := -1
	emit := func(end int) {
		if start >= 0 {
			out = append(out, text[start:end])
			start = -1
		}
	}
	for i, r := range text {
		switch {
		case unicode.IsSpace(r) || unicode.IsControl(r):
			emit(i)
		case isPunct(r) || isCJK(r):
			emit(i)
			out = append(out, string(r))
		default:
			if start < 0 {
				start = i
			}
		}
	}
	emit(len(text))
	if t.metaspace {
		for i, w := range out {
			out[i] = "▁" + w
		}
	}
	return out
}

func isPunct(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.IsPunct(r)
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// wordPiece splits a word greedily into the longest vocabulary pieces; a
// word that cannot be split is one unknown token.
func (t *tokenizer) wordPiece(word string, dst []int) []int {
	rs := []rune(word)
	if len(rs) > t.maxChars {
		return dst
	}
	n := len(dst)
	for start := 0; start < len(rs); {
		end, id := len(rs), -1
		for ; end > start; end-- {
			piece := string(rs[start:end])
			if start > 0 {
				piece = t.prefix + piece
			}
			if v, ok := t.vocab[piece]; ok {
				id = v
				break
			}
		}
		if id < 0 {
			return dst[:n] // the whole word is unknown
		}
		if id != t.unk {
			dst = append(dst, id)
		}
		start = end
	}
	return dst
}

// unigram segments a word into the pieces of highest total score
// (Viterbi); characters no piece covers are unknown and left out.
func (t *tokenizer) unigram(word string, dst []int) []int {
	rs := []rune(word)
	n := len(rs)
	best := make([]float64, n+1)
	from := make([]int, n+1)
	ids := make([]int, n+1)
	for i := 1; i <= n; i++ {
		best[i] = math.Inf(-1)
	}
	const unkPenalty = -100.0
	for end := 1; end <= n; end++ {
		for start := max(0, end-t.maxPiece); start < end; start++ {
			if math.IsInf(best[start], -1) {
				continue
			}
			if id, ok := t.vocab[string(rs[start:end])]; ok && best[start]+t.scores[id] > best[end] {
				best[end], from[end], ids[end] = best[start]+t.scores[id], start, id
			}
		}
		if s := best[end-1] + unkPenalty; math.IsInf(best[end], -1) || s > best[end] {
			best[end], from[end], ids[end] = s, end-1, -1
		}
	}
	var rev []int
	for end := n; end > 0; end = from[end] {
		if ids[end] >= 0 && ids[end] != t.unk {
			rev = append(rev, ids[end])
		}
	}
	for i := len(rev) - 1; i >= 0; i-- {
		dst = append(dst, rev[i])
	}
	return dst
}
