package postgres

import (
	"strings"

	"github.com/recall-mem/recall/ftsquery"
)

// The query language is SQLite's: free text whose words (letters and
// digits, stopwords dropped unless nothing else remains) are ORed, any
// operator syntax in the input being plain text. ftsquery.Terms is the
// one definition of it, so the two stores cannot drift apart.

// tsQueryText returns the to_tsquery input for text, or "" when no word
// remains. Terms hold only letters and digits, so nothing in them is
// tsquery syntax.
func tsQueryText(text string) string {
	return strings.Join(ftsquery.Terms(text), " | ")
}

// matchCond returns the condition that column (a tsvector) matches text,
// adding its argument to w; "false" when text holds no word, as an empty
// query matches nothing on SQLite too.
func matchCond(column string, w *where, text string) string {
	q := tsQueryText(text)
	if q == "" {
		return "false"
	}
	return column + " @@ to_tsquery('recall', " + w.arg(q) + ")"
}
