package rank

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MMR reorders candidates (best first, with scores) by maximal marginal
// relevance: each next pick maximises lambda×score - (1-lambda)×(largest
// similarity to an item already picked), so near-duplicates do not crowd
// the top. Scores are normalised to the best first. It returns up to k
// indices into scores.
func MMR(scores []float64, sim func(i, j int) float64, lambda float64, k int) []int {
	n := len(scores)
	if k > n {
		k = n
	}
	top := 0.0
	for _, s := range scores {
		top = max(top, s)
	}
	if top == 0 {
		top = 1
	}
	picked := make([]int, 0, k)
	used := make([]bool, n)
	maxSim := make([]float64, n)
	for len(picked) < k {
		best, bestVal := -1, 0.0
		for i := 0; i < n; i++ {
			if used[i] {
				continue
			}
			v := lambda*scores[i]/top - (1-lambda)*maxSim[i]
			if best < 0 || v > bestVal {
				best, bestVal = i, v
			}
		}
		used[best] = true
		picked = append(picked, best)
		for i := 0; i < n; i++ {
			if !used[i] {
				maxSim[i] = max(maxSim[i], sim(i, best))
			}
		}
	}
	return picked
}

// TermSet is the set of lower-case words of a text, for similarity.
type TermSet map[string]struct{}

// Terms splits text into its set of lower-case words of letters and digits.
func Terms(text string) TermSet {
	out := TermSet{}
	for _, w := range splitWords(text) {
		out[w] = struct{}{}
	}
	return out
}

// splitWords returns the lower-case words of letters and digits of text,
// in order, repeats kept.
func splitWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// wordList is the set of words Terms makes, each word as its number in
// the wordNumbers of the texts it is compared with, sorted: diversify
// compares every pair of its pool, and merging two short sorted lists of
// numbers costs a fraction of merging lists of strings (each step a
// string comparison) or of probing a map for each word. One word has one
// number, so the lists share exactly the words the sets share: its
// jaccard is Jaccard's of the two TermSets, to the bit.
type wordList []int32

// wordNumbers numbers words in the order they are first seen.
type wordNumbers struct {
	ids map[string]int32
	buf []byte // the word being read (of)
}

func newWordNumbers(size int) *wordNumbers {
	return &wordNumbers{ids: make(map[string]int32, size)}
}

// number is the number of word, a new one if it was not seen yet. The
// lookup by bytes allocates nothing; only a new word's key does.
func (nums *wordNumbers) number(word []byte) int32 {
	n, ok := nums.ids[string(word)]
	if !ok {
		n = int32(len(nums.ids))
		nums.ids[string(word)] = n
	}
	return n
}

// of is the wordList of text, numbering the words not seen yet: the words
// splitWords finds. Text of ASCII alone (most memories) is read in one
// pass with no copy: there a letter or digit of Unicode is one of a–z,
// A–Z, 0–9, and lower case maps A–Z alone.
func (nums *wordNumbers) of(text string) wordList {
	out := make(wordList, 0, 32)
	if !isASCII(text) {
		for _, w := range splitWords(text) {
			out = append(out, nums.number([]byte(w)))
		}
	} else {
		word := nums.buf[:0]
		for i := 0; i <= len(text); i++ {
			var c byte // past the end: a separator
			if i < len(text) {
				c = text[i]
			}
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				word = append(word, c)
			case 'A' <= c && c <= 'Z':
				word = append(word, c+('a'-'A'))
			case len(word) > 0:
				out = append(out, nums.number(word))
				word = word[:0]
			}
		}
		nums.buf = word
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// jaccard is |a ∩ b| / |a ∪ b|, 0 for two empty lists, as Jaccard; a and
// b are numbered by the same wordNumbers.
func (a wordList) jaccard(b wordList) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			inter, i, j = inter+1, i+1, j+1
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// Jaccard is |a ∩ b| / |a ∪ b|, 0 for two empty sets.
func Jaccard(a, b TermSet) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	inter := 0
	for w := range a {
		if _, ok := b[w]; ok {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}
