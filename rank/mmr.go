package rank

import (
	"slices"
	"strings"
	"unicode"
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
	for _, w := range words(text) {
		out[w] = struct{}{}
	}
	return out
}

// words are the lower-case words of letters and digits of text, in order.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// sortedTerms is Terms as a sorted list without repeats: MMR compares
// every pair of its candidates, and merging two sorted lists costs less
// than a map lookup per word.
func sortedTerms(text string) []string {
	ws := words(text)
	slices.Sort(ws)
	return slices.Compact(ws)
}

// jaccardSorted is Jaccard of two sortedTerms lists: the same counts,
// so the same value.
func jaccardSorted(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
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
