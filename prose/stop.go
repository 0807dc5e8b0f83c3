// Package prose is what recall knows about English words without a model:
// which ones are function words, and what text costs in model tokens.
// Full-text queries, ranking, the hashing embedder and the contradiction
// check all share it, so that "the" is a stopword everywhere or nowhere.
package prose

import (
	"sort"
	"strings"
)

// stopList holds the function words (articles, pronouns, prepositions,
// auxiliaries, conjunctions, question words) and the fillers of chat ("yeah",
// "really") that say nothing about a topic. "s" and "t" are what is left of
// "user's" and "don't" once apostrophes split words.
const stopList = `a about after again all also am an and any are as at
	be because been before being but by can could did do does doing done for
	from get got had has have having he her here hers him his how i if in into
	is it its just like me more most my no not now of off on one only or other
	our out over really s she should so some still such t than that the their
	them then there these they this those through to too up us very was we well
	were what when where which while who whom why will with would yeah yes you
	your`

var stop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(stopList) {
		m[w] = true
	}
	return m
}()

// IsStop reports whether w, in lower case, is a stopword.
func IsStop(w string) bool { return stop[w] }

// Stopwords returns the stopwords in alphabetical order, for callers that
// index them their own way (the hashing embedder keys them by hash).
func Stopwords() []string {
	out := make([]string, 0, len(stop))
	for w := range stop {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// Subset returns the stopwords among words (separated by white space) as a
// set, for a use that ignores fewer words than the whole list. It panics on
// a word that is not a stopword: a use may narrow the list, never extend it.
func Subset(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		if !stop[w] {
			panic("prose: " + w + " is not a stopword")
		}
		m[w] = true
	}
	return m
}

// Except returns the stopwords other than words (separated by white space)
// as a set, for a use that keeps some of them as words. It panics on a word
// that is not a stopword.
func Except(words string) map[string]bool {
	drop := Subset(words)
	m := map[string]bool{}
	for w := range stop {
		if !drop[w] {
			m[w] = true
		}
	}
	return m
}
