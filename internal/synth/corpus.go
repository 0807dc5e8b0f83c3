// Package synth generates a deterministic synthetic corpus for scale
// benchmarks: sentence-like memories over a Zipf-distributed vocabulary of
// made-up words, and question-like queries that mix a target memory's
// words with common ones, the way people ask.
package synth

import (
	"math"
	"math/rand/v2"
	"strings"
)

// DefaultVocab is the vocabulary size: tens of thousands of words, as in
// real notes.
const DefaultVocab = 30000

// Corpus generates memory i and query q as pure functions of the seed.
type Corpus struct {
	seed  uint64
	words []string
}

// New returns a corpus of vocab distinct words (DefaultVocab when not positive).
func New(seed uint64, vocab int) *Corpus {
	if vocab <= 0 {
		vocab = DefaultVocab
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	seen := make(map[string]bool, vocab)
	words := make([]string, 0, vocab)
	for len(words) < vocab {
		w := pseudoWord(rng)
		if !seen[w] && !stop[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return &Corpus{seed: seed, words: words}
}

var (
	onsets = []string{"b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br", "ch", "cl", "dr", "fl", "gr", "pl", "pr", "sh", "sk", "st", "str", "th", "tr"}
	nuclei = []string{"a", "e", "i", "o", "u", "ai", "ea", "ee", "io", "ou", "y"}
	codas  = []string{"", "", "", "n", "r", "s", "t", "l", "m", "nd", "ng", "rk", "st", "x"}
	// function words keep the text sentence-like; queries drop most of them.
	function = []string{"the", "a", "of", "to", "and", "in", "is", "was", "for", "with", "on", "that", "it", "at", "by", "from"}
	stop     = func() map[string]bool {
		m := map[string]bool{}
		for _, w := range function {
			m[w] = true
		}
		return m
	}()
	questions = []string{"what", "when", "how", "why", "who", "where", "which"}
	verbs     = []string{"did", "does", "is", "was", "should", "can"}
)

func pseudoWord(rng *rand.Rand) string {
	var b strings.Builder
	for n := 1 + rng.IntN(3); n > 0; n-- {
		b.WriteString(onsets[rng.IntN(len(onsets))])
		b.WriteString(nuclei[rng.IntN(len(nuclei))])
		b.WriteString(codas[rng.IntN(len(codas))])
	}
	return b.String()
}

// zipf draws word ranks with P(rank k) ∝ 1/(k+1)^1.07, as in natural text.
func (c *Corpus) zipf(rng *rand.Rand) *zipfer {
	return &zipfer{rng: rng, n: uint64(len(c.words) - 1)}
}

type zipfer struct {
	rng *rand.Rand
	n   uint64
}

// next draws a rank by inverting the continuous Zipf CDF approximately:
// cheap, deterministic and close enough for a benchmark corpus.
func (z *zipfer) next() int {
	// Rank r with density ∝ r^-s for r in [1, n+1]: invert the CDF of the
	// continuous power law.
	const s = 1.07
	u := z.rng.Float64()
	hi := math.Pow(float64(z.n+1), 1-s)
	r := math.Pow(1+u*(hi-1), 1/(1-s))
	k := int(r) - 1
	if k < 0 {
		k = 0
	}
	if k > int(z.n) {
		k = int(z.n)
	}
	return k
}

// Memory returns the title and content of memory i: one to four sentences
// of six to eighteen words.
func (c *Corpus) Memory(i int) (title, content string) {
	rng := rand.New(rand.NewPCG(c.seed, uint64(i)*2+1))
	z := c.zipf(rng)
	t := make([]string, 2+rng.IntN(4))
	for j := range t {
		t[j] = c.words[z.next()]
	}
	var b strings.Builder
	for n := 1 + rng.IntN(4); n > 0; n-- {
		words := 6 + rng.IntN(13)
		for j := 0; j < words; j++ {
			w := c.words[z.next()]
			if rng.IntN(3) == 0 {
				w = function[rng.IntN(len(function))]
			}
			if j == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
		b.WriteString(". ")
	}
	return strings.Join(t, " "), strings.TrimSpace(b.String())
}

// Query returns query q among n memories: a question word and a verb, two
// to five words of a random target memory and up to two common words, 3 to
// 8 words in all. It also returns the target's index.
func (c *Corpus) Query(q, n int) (string, int) {
	rng := rand.New(rand.NewPCG(c.seed^0x9e3779b97f4a7c15, uint64(q)))
	target := rng.IntN(n)
	_, content := c.Memory(target)
	var words []string
	for _, w := range strings.Fields(strings.ToLower(strings.ReplaceAll(content, ".", ""))) {
		if !stop[w] {
			words = append(words, w)
		}
	}
	parts := []string{questions[rng.IntN(len(questions))], verbs[rng.IntN(len(verbs))]}
	take := min(len(words), 1+rng.IntN(4))
	for j := 0; j < take; j++ {
		parts = append(parts, words[rng.IntN(len(words))])
	}
	z := c.zipf(rng)
	for j := rng.IntN(3); j > 0 && len(parts) < 8; j-- {
		parts = append(parts, c.words[z.next()])
	}
	return strings.Join(parts, " ") + "?", target
}
