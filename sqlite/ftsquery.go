package sqlite

import (
	"strings"

	"github.com/recall-mem/recall/ftsquery"
)

// FTSQuery turns free text into a safe FTS5 query: every word becomes a
// quoted term, terms are ORed so BM25 ranks partial matches, and FTS5
// syntax in the input (quotes, hyphens, colons, NEAR, AND, *) is treated
// as text. It returns "" when no searchable word remains.
func FTSQuery(text string) string {
	return quoteTerms(ftsquery.Terms(text))
}

// quoteTerms ORs terms as FTS5 strings. Terms hold only letters and digits,
// so quoting cannot be escaped.
func quoteTerms(terms []string) string {
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + t + `"`
	}
	return strings.Join(quoted, " OR ")
}
