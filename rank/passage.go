package rank

import (
	"strings"
)

// passageWords is the size of a passage window in a long memory.
const passageWords = 40

// queryTerms are the query's words, for passage selection.
func queryTerms(text string) TermSet { return Terms(text) }

// bestPassage returns the window of content that holds the most query
// words, or fallback (the index's own snippet) for short content.
func bestPassage(content string, terms TermSet, fallback string) string {
	words := strings.Fields(content)
	if len(words) <= passageWords {
		if fallback != "" {
			return fallback
		}
		return strings.Join(words, " ")
	}
	best, bestScore := 0, -1
	for start := 0; start < len(words); start += passageWords / 2 {
		score := 0
		for _, w := range words[start:min(start+passageWords, len(words))] {
			if matches(terms, w) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = start, score
		}
		if start+passageWords >= len(words) {
			break
		}
	}
	out := strings.Join(words[best:min(best+passageWords, len(words))], " ")
	if best > 0 {
		out = "…" + out
	}
	if best+passageWords < len(words) {
		out += "…"
	}
	return out
}

// matches reports whether a content word matches a query term, allowing
// simple inflections (deploy, deploys, deployed, deploying).
func matches(terms TermSet, word string) bool {
	for w := range Terms(word) {
		if _, ok := terms[w]; ok {
			return true
		}
		for t := range terms {
			if len(t) >= 4 && strings.HasPrefix(w, t) && len(w)-len(t) <= 3 {
				return true
			}
		}
	}
	return false
}
