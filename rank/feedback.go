package rank

import (
	"context"
	"sort"
	"strings"
	"unicode"

	"github.com/recall-mem/recall"
)

// feedbackTerms picks n words that characterise the best candidates and
// are not in the query (pseudo-relevance feedback): each top document
// votes for its words in proportion to its score and inversely to its
// length.
func feedbackTerms(query TermSet, top []*candidate, n int) []string {
	weight := map[string]float64{}
	best := 0.0
	for _, c := range top {
		best = max(best, c.bm25)
	}
	if best <= 0 {
		return nil
	}
	for _, c := range top {
		ts := Terms(c.m.Title + " " + c.m.Content)
		for w := range ts {
			if _, ok := query[w]; ok || stopwords[w] || len(w) < 3 {
				continue
			}
			weight[w] += c.bm25 / best / float64(len(ts))
		}
	}
	words := make([]string, 0, len(weight))
	for w := range weight {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		if weight[words[i]] != weight[words[j]] {
			return weight[words[i]] > weight[words[j]]
		}
		return words[i] < words[j]
	})
	return words[:min(n, len(words))]
}

// feedback runs the query again with feedback terms added and stores the
// second BM25 score of each candidate it finds.
func (s *Searcher) feedback(ctx context.Context, o Options, text string, f recall.MemoryFilter, textIDs []string, cands map[string]*candidate) error {
	top := make([]*candidate, 0, o.FeedbackDocs)
	for _, id := range textIDs[:min(len(textIDs), o.FeedbackDocs)] {
		top = append(top, cands[id])
	}
	extra := feedbackTerms(Terms(text), top, o.FeedbackTerms)
	if len(extra) == 0 {
		return nil
	}
	hits, err := s.Text.Search(ctx, recall.SearchQuery{Text: text + " " + strings.Join(extra, " "), Filter: f, Limit: o.Candidates})
	if err != nil {
		return err
	}
	for _, h := range hits {
		c := cands[h.Memory.ID]
		if c == nil {
			c = &candidate{m: h.Memory, snippet: h.Snippet}
			cands[h.Memory.ID] = c
		}
		c.prf = h.Score
	}
	return nil
}

// contentWords drops the function words from a query, so that an
// embedding of it is not dominated by "what", "did" and "the"; a query of
// function words only stays as it is.
func contentWords(text string) string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !stopwords[w] {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return text
	}
	return strings.Join(out, " ")
}
