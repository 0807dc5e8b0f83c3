package sqlite

import (
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

// purgeMatch is a purge's --search (ftsquery.Match) as SQLite finds it:
// words and prefixes through the FTS5 indexes, substrings with instr().
type purgeMatch struct{ *ftsquery.Match }

// newPurgeMatch returns the match of c's search, or nil without one.
func newPurgeMatch(c recall.PurgeCriteria) (*purgeMatch, error) {
	m, err := ftsquery.NewMatch(c)
	if err != nil || m == nil {
		return nil, err
	}
	return &purgeMatch{m}, nil
}

// ftsQuery is the FTS5 query holding every term as a word or a prefix.
func (m *purgeMatch) ftsQuery() string {
	star := ""
	if m.Rule == recall.MatchPrefix {
		star = "*"
	}
	return `"` + strings.Join(m.Terms, `"`+star+` AND "`) + `"` + star
}

// cond is the SQL condition for one table: rowid in the full-text index
// fts, or for substrings the text expression holding the needle.
func (m *purgeMatch) cond(rowid, fts, text string) (string, []any) {
	if m.Rule == recall.MatchSubstring {
		return "instr(lower(" + text + "), ?) > 0", []any{m.Needle}
	}
	return rowid + " IN (SELECT rowid FROM " + fts + " WHERE " + fts + " MATCH ?)", []any{m.ftsQuery()}
}

// PurgeMatcher reports whether a text matches c's search under its
// --match rule (ftsquery.Matcher), for the markdown views.
func PurgeMatcher(c recall.PurgeCriteria) (func(text string) bool, error) {
	return ftsquery.Matcher(c)
}
