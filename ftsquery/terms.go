// Package ftsquery is recall's full-text query language, the same on
// every store: which words of a query are searched, and how a purge's
// --search matches a text under its --match rule. The stores translate it
// to their own machinery (FTS5 on SQLite, tsquery on PostgreSQL); keeping
// the words here is what stops the two from drifting apart.
package ftsquery

import (
	"strings"
	"unicode"

	"github.com/recall-mem/recall/prose"
)

// stopwords are the shared stopwords less those full-text queries still
// search for. Dropping the excepted words too cost LoCoMo dev 0.011 of
// hybrid R@5 (0.654 → 0.643) and 0.013 of BM25 R@5: words such as
// "before", "after", "not" and "one" narrow a question.
var stopwords = prose.Except(`about after again all also am any because been before being can could
	doing done get got having here hers him just like more most no not now off one only other out over
	really s should some still such t than those through too up us very well while yeah yes`)

// Terms splits text into lower-case words of letters and digits, without
// stopwords (unless nothing else remains: they match nearly every row,
// cost time, and add nothing to BM25's ranking) and without repeats. Any
// operator syntax in text (quotes, AND, -, *) is plain text.
func Terms(text string) []string {
	var out, stops []string
	seen := map[string]bool{}
	for _, w := range Words(text) {
		if seen[w] {
			continue
		}
		seen[w] = true
		if stopwords[w] {
			stops = append(stops, w)
		} else {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return stops
	}
	return out
}

// Words splits text into lower-case words of letters and digits, the way
// Terms splits queries, keeping every word.
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
