package rank

import (
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

// A keyword lookup is a query whose words the best match holds, every one
// of them ("cherries" over "Charlie cherries are dark"). A memory matching
// such a query by vector alone is a neighbour of the topic (the other
// fruit, cosine 0.37–0.48 under the built-in encoder), not evidence, so a
// lookup takes only hits that hold a word of the query. No cosine margin
// can tell those neighbours apart: each one measured cost vector-mode R@5
// 0.036 or more on LoCoMo (docs/retrieval.md).

// queryWords are the words of a query a lookup is told by: every word,
// stopwords too, folded as fold does. A query holding words such as
// "how" or "what" is a question, and a memory that holds all of its
// content words is then often a look-alike rather than the answer: told
// by content words alone (ftsquery.Terms), lookups refused the targets of
// the paraphrase probe (TestParaphraseProbe, 41% → 22% in the top 3).
func queryWords(text string) []string { return foldAll(ftsquery.Words(text)) }

// matchWords are the words of a query a memory matches by: those
// full-text search looks for (ftsquery.Terms, stopwords left out the
// same way), folded.
func matchWords(text string) []string { return foldAll(ftsquery.Terms(text)) }

func foldAll(words []string) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		out = append(out, fold(w))
	}
	return out
}

// heldWords is the set of the words a memory holds where full-text search
// looks (title, tags, content), folded.
func heldWords(m *recall.Memory) map[string]bool {
	out := map[string]bool{}
	for _, text := range append([]string{m.Title, m.Content}, m.Tags...) {
		for _, w := range ftsquery.Words(text) {
			out[fold(w)] = true
		}
	}
	return out
}

// fold takes the plural off an English word the way the full-text
// index's Porter stemmer does first (its steps 1a and 1c), so that
// "cherry" finds "cherries" here as it does in full text; "caresses" →
// "caress", "ponies" → "poni", "pony" → "poni", "cats" → "cat". The rest
// of the stemmer is left out: a lookup is told by the words a memory
// holds, and a word that only shares a stem ("research" in "researcher")
// is not a sign the query is answered word for word.
func fold(w string) string {
	switch {
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ies"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ss"):
	case strings.HasSuffix(w, "s") && len(w) > 1:
		w = w[:len(w)-1]
	}
	if strings.HasSuffix(w, "y") && strings.ContainsAny(w[:len(w)-1], "aeiou") {
		w = w[:len(w)-1] + "i"
	}
	return w
}

// lexical reports whether a memory matched the query's words: a full-text
// match, or in vector mode (which runs no full-text search) a memory
// whose text holds one of words (matchWords).
func lexical(c *candidate, mode string, words []string) bool {
	if mode != recall.ModeVector {
		return c.bm25Rank > 0
	}
	have := heldWords(c.m)
	for _, w := range words {
		if have[w] {
			return true
		}
	}
	return false
}

// lookup reports whether the query is a keyword lookup: the best match,
// the first full-text match or in vector mode the nearest memory, holds
// every one of words (queryWords). On LoCoMo dev it fires on 4 of 1,018
// questions in vector mode and 8 in hybrid, and R@5 / R@10 stay as they
// were in every mode (vector 0.449 / 0.553, hybrid 0.684 / 0.781):
// questions rarely have all their words in one turn.
func lookup(cands map[string]*candidate, mode string, words []string) bool {
	if len(words) == 0 {
		return false
	}
	for _, c := range cands {
		if (mode == recall.ModeVector && c.vectorRank != 1) || (mode != recall.ModeVector && c.bm25Rank != 1) {
			continue
		}
		have := heldWords(c.m)
		for _, w := range words {
			if !have[w] {
				return false
			}
		}
		return true
	}
	return false
}
