package postgres

import (
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

// purgeCond is the condition that a row matches a purge's --search
// (ftsquery.Match): every word, or every word as a prefix, through the
// tsvector column fts, as search finds words; the substring by scanning
// the text expression, lower-cased in ASCII only, as on SQLite.
func purgeCond(m *ftsquery.Match, w *where, fts, text string) string {
	if m.Rule == recall.MatchSubstring {
		return "strpos(" + asciiLowerSQL(text) + ", " + w.arg(m.Needle) + ") > 0"
	}
	star := ""
	if m.Rule == recall.MatchPrefix {
		star = ":*"
	}
	// Terms hold only letters and digits: nothing in them is tsquery syntax.
	q := strings.Join(m.Terms, star+" & ") + star
	return fts + " @@ to_tsquery('recall', " + w.arg(q) + ")"
}

// asciiLowerSQL lower-cases ASCII letters only, whatever the database's
// locale makes of lower().
func asciiLowerSQL(text string) string {
	return "translate(" + text + ", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
}
