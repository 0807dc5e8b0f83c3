// Package hashing holds the embedders that need nothing outside the binary:
// the built-in feature-hashing embedder and None.
package hashing

import (
	"context"
	"fmt"
	"math"
	"slices"
	"unicode"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/prose"
)

// DefaultDim is the built-in embedder's dimension: large enough that hash
// collisions between the few hundred features of a memory stay rare, small
// enough that an exact scan of 100,000 vectors takes milliseconds.
const DefaultDim = 384

// HashingModel names the built-in embedder's vectors. Change the version
// whenever the features or weights change, so that stored vectors are
// recognised as stale and `recall reindex` rebuilds them.
const HashingModel = "builtin-hash-v1"

// Feature weights. Whole words carry most of the signal; bigrams reward
// phrases; character trigrams make the match fuzzy (plurals, typos,
// inflections) without a stemmer.
const (
	weightWord    = 1.0
	weightBigram  = 0.6
	weightTrigram = 0.25
)

// feature kinds, kept in the top two bits of a feature key so that the same
// string seen as a word and as a trigram are different features.
const (
	kindWord uint64 = iota
	kindBigram
	kindTrigram
)

// Hashing is the built-in embedder: signed feature hashing of words, word
// bigrams and character trigrams with sublinear term frequencies,
// L2-normalised. It is lexical and fuzzy, not semantic: "car" and
// "automobile" share nothing, "deploy" and "deployment" share a lot. It is
// deterministic, needs no model and is safe for concurrent use.
type Hashing struct {
	dim int
}

var _ recall.Embedder = (*Hashing)(nil)

// NewHashing returns a hashing embedder of dim dimensions (DefaultDim when
// dim is not positive).
func NewHashing(dim int) *Hashing {
	if dim <= 0 {
		dim = DefaultDim
	}
	return &Hashing{dim: dim}
}

// Model returns the model name, with the dimension when it is not the default.
func (h *Hashing) Model() string {
	if h.dim == DefaultDim {
		return HashingModel
	}
	return fmt.Sprintf("%s-%d", HashingModel, h.dim)
}

// Dim returns the vector dimension.
func (h *Hashing) Dim() int { return h.dim }

// Embed returns one unit vector per text (a zero vector for a text with no
// words). It never fails.
func (h *Hashing) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*h.dim)
	var keys []uint64
	for i, t := range texts {
		v := flat[i*h.dim : (i+1)*h.dim : (i+1)*h.dim]
		keys = Features(t, keys[:0])
		h.fill(v, keys)
		out[i] = v
	}
	return out, nil
}

// fill adds every feature with weight × (1 + ln tf) and a hash-chosen sign
// into v, then normalises it.
func (h *Hashing) fill(v []float32, keys []uint64) {
	slices.Sort(keys)
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j] == keys[i] {
			j++
		}
		k := keys[i]
		w := kindWeight(k>>62) * (1 + math.Log(float64(j-i)))
		if k&(1<<40) != 0 {
			w = -w
		}
		v[uint32(k)%uint32(h.dim)] += float32(w)
		i = j
	}
	recall.Normalize(v)
}

func kindWeight(kind uint64) float64 {
	switch kind {
	case kindWord:
		return weightWord
	case kindBigram:
		return weightBigram
	default:
		return weightTrigram
	}
}

// FNV-1a, 64 bit, over runes: cheap, stable across releases and platforms.
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

func hashRune(h uint64, r rune) uint64 {
	for x := uint32(r); ; x >>= 8 {
		h ^= uint64(x & 0xff)
		h *= fnvPrime
		if x < 0x100 {
			return h
		}
	}
}

func hashRunes(rs []rune) uint64 {
	h := fnvOffset
	for _, r := range rs {
		h = hashRune(h, r)
	}
	return h
}

// key packs a feature hash and its kind into one sortable value.
func key(h, kind uint64) uint64 {
	// Finalise (splitmix64) so that the low bits used for the index and
	// bit 40 used for the sign are well mixed.
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h&^(3<<62) | kind<<62
}

// Features appends the feature keys of text to dst: lower-cased words
// (letters and digits) other than stopwords, bigrams of neighbouring kept
// words, and character trigrams of each kept word with boundary marks.
func Features(text string, dst []uint64) []uint64 {
	var word []rune
	var prev uint64
	havePrev := false
	flush := func() {
		if len(word) == 0 {
			return
		}
		w := hashRunes(word)
		if _, stop := stopwords[w]; stop {
			word = word[:0]
			return
		}
		dst = append(dst, key(w, kindWord))
		if havePrev {
			dst = append(dst, key(prev*fnvPrime^w, kindBigram))
		}
		prev, havePrev = w, true
		dst = appendTrigrams(dst, word)
		word = word[:0]
	}
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			word = append(word, unicode.ToLower(r))
			continue
		}
		if r == '\'' || r == '’' {
			// "user's" is "user": drop the possessive, keep the word going.
			continue
		}
		flush()
	}
	flush()
	return dst
}

// appendTrigrams adds the trigrams of "<word>"; a one-letter word has none.
func appendTrigrams(dst []uint64, word []rune) []uint64 {
	if len(word) < 2 {
		return dst
	}
	n := len(word) + 2
	at := func(i int) rune {
		switch i {
		case 0:
			return '<'
		case n - 1:
			return '>'
		}
		return word[i-1]
	}
	for i := 0; i+3 <= n; i++ {
		h := hashRune(hashRune(hashRune(fnvOffset, at(i)), at(i+1)), at(i+2))
		dst = append(dst, key(h, kindTrigram))
	}
	return dst
}

// stopwords are the shared stopwords that builtin-hash-v1 drops, keyed by
// hash so that lookups allocate nothing. The words excepted are hashed as
// features: the model's vectors were made with them, so dropping them waits
// for a new HashingModel version (and a `recall reindex`).
var stopwords = func() map[uint64]struct{} {
	m := map[uint64]struct{}{}
	for w := range prose.Except(`after again all also any because before doing done get got having
		here hers like more most now off one only other out over really some still such then through up
		well while yeah yes`) {
		m[hashRunes([]rune(w))] = struct{}{}
	}
	return m
}()
