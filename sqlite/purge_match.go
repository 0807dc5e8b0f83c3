package sqlite

import (
	"strings"
	"unicode"

	"github.com/recall-mem/recall"
)

// purgeMatch is how a purge's --search finds entries under its --match
// rule: whole words and word prefixes through the full-text indexes (as
// search does), substrings by scanning the text, which a purge can afford.
type purgeMatch struct {
	rule   string
	terms  []string // words and prefixes, as QueryTerms splits the query
	needle string   // substring: the query as typed, ASCII lower case as SQLite's lower()
}

// newPurgeMatch returns the match of c's search, or nil without one.
func newPurgeMatch(c recall.PurgeCriteria) (*purgeMatch, error) {
	if c.Search == "" {
		return nil, nil
	}
	m := &purgeMatch{rule: c.MatchRule(), terms: QueryTerms(c.Search), needle: asciiLower(strings.TrimSpace(c.Search))}
	if m.rule != recall.MatchSubstring && len(m.terms) == 0 {
		return nil, errNoPurgeTerms
	}
	return m, nil
}

// wider is the same query under the next wider rule, or nil when there
// is none (or the query has no words for it).
func (m *purgeMatch) wider() *purgeMatch {
	for i, r := range recall.MatchRules[:len(recall.MatchRules)-1] {
		if r == m.rule {
			w := *m
			w.rule = recall.MatchRules[i+1]
			return &w
		}
	}
	return nil
}

// ftsQuery is the FTS5 query holding every term as a word or a prefix.
func (m *purgeMatch) ftsQuery() string {
	star := ""
	if m.rule == recall.MatchPrefix {
		star = "*"
	}
	return `"` + strings.Join(m.terms, `"`+star+` AND "`) + `"` + star
}

// cond is the SQL condition for one table: rowid in the full-text index
// fts, or for substrings the text expression holding the needle.
func (m *purgeMatch) cond(rowid, fts, text string) (string, []any) {
	if m.rule == recall.MatchSubstring {
		return "instr(lower(" + text + "), ?) > 0", []any{m.needle}
	}
	return rowid + " IN (SELECT rowid FROM " + fts + " WHERE " + fts + " MATCH ?)", []any{m.ftsQuery()}
}

// ruleOf is the narrowest rule, up to m's, under which text matches; ""
// when it does not. Words are compared without stemming, so an entry the
// index matched through a stem is put down to m's own rule.
func (m *purgeMatch) ruleOf(text string) string {
	words := textWords(text)
	if m.rule != recall.MatchSubstring || len(m.terms) > 0 {
		if holdsAll(words, m.terms, false) {
			return recall.MatchWords
		}
		if m.rule == recall.MatchWords {
			return ""
		}
		if holdsAll(words, m.terms, true) {
			return recall.MatchPrefix
		}
	}
	if m.rule == recall.MatchSubstring && strings.Contains(asciiLower(text), m.needle) {
		return recall.MatchSubstring
	}
	return ""
}

// label is the rule to show for an entry the store matched under m.
func (m *purgeMatch) label(text string) string {
	if r := m.ruleOf(text); r != "" {
		return r
	}
	return m.rule
}

// textWords splits text into lower-case words the way QueryTerms splits
// queries.
func textWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// holdsAll reports whether every term is one of words, or with prefix
// the start of one.
func holdsAll(words, terms []string, prefix bool) bool {
	for _, t := range terms {
		found := false
		for _, w := range words {
			if w == t || prefix && strings.HasPrefix(w, t) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// asciiLower lower-cases ASCII letters only, as SQLite's lower() does.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// PurgeMatcher reports whether a text matches c's search under its
// --match rule, for copies of the store's text kept outside it (the
// markdown views); nil when c has no search.
func PurgeMatcher(c recall.PurgeCriteria) (func(text string) bool, error) {
	m, err := newPurgeMatch(c)
	if err != nil || m == nil {
		return nil, err
	}
	return func(text string) bool { return m.ruleOf(text) != "" }, nil
}
