package ftsquery

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/recall-mem/recall"
)

// ErrNoTerms is returned for a purge --search without a searchable word.
var ErrNoTerms = recall.Errorf(recall.EINVALID, "--search has no words to match: give letters or digits, for example --search \"sk-proj\".")

// Match is how a purge's --search finds entries under its --match rule:
// whole words and word prefixes (which a store finds through its
// full-text index, as search does) or substrings (found by scanning the
// text, which a purge can afford).
type Match struct {
	Rule   string   // one of recall.MatchRules
	Terms  []string // words and prefixes, as Terms splits the query
	Needle string   // substring: the query as typed, ASCII lower case as SQL's lower() under SQLite
}

// NewMatch returns the match of c's search, or nil without one.
func NewMatch(c recall.PurgeCriteria) (*Match, error) {
	if c.Search == "" {
		return nil, nil
	}
	m := &Match{Rule: c.MatchRule(), Terms: Terms(c.Search), Needle: ASCIILower(strings.TrimSpace(c.Search))}
	if m.Rule != recall.MatchSubstring && len(m.Terms) == 0 {
		return nil, ErrNoTerms
	}
	return m, nil
}

// Wider is the same query under the next wider rule, or nil when there is
// none.
func (m *Match) Wider() *Match {
	for i, r := range recall.MatchRules[:len(recall.MatchRules)-1] {
		if r == m.Rule {
			w := *m
			w.Rule = recall.MatchRules[i+1]
			return &w
		}
	}
	return nil
}

// RuleOf is the narrowest rule, up to m's, under which text matches; ""
// when it does not. Words are compared without stemming, so an entry an
// index matched through a stem is put down to m's own rule (see Label).
func (m *Match) RuleOf(text string) string {
	words := Words(text)
	if m.Rule != recall.MatchSubstring || len(m.Terms) > 0 {
		if holdsAll(words, m.Terms, false) {
			return recall.MatchWords
		}
		if m.Rule == recall.MatchWords {
			return ""
		}
		if holdsAll(words, m.Terms, true) {
			return recall.MatchPrefix
		}
	}
	if m.Rule == recall.MatchSubstring && strings.Contains(ASCIILower(text), m.Needle) {
		return recall.MatchSubstring
	}
	return ""
}

// Label is the rule to show for an entry a store matched under m.
func (m *Match) Label(text string) string {
	if r := m.RuleOf(text); r != "" {
		return r
	}
	return m.Rule
}

// Matcher reports whether a text matches c's search under its --match
// rule, for copies of a store's text kept outside it (the markdown
// views); nil when c has no search.
func Matcher(c recall.PurgeCriteria) (func(text string) bool, error) {
	m, err := NewMatch(c)
	if err != nil || m == nil {
		return nil, err
	}
	return func(text string) bool { return m.RuleOf(text) != "" }, nil
}

// holdsAll reports whether every term is one of words, or with prefix the
// start of one.
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

// ASCIILower lower-cases ASCII letters only, as SQLite's lower() does; a
// substring purge compares under it on every store, so that the rule
// means one thing.
func ASCIILower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// FirstWider says what the wider --match rules would match when c's
// search matched nothing: the first of them under which count (the
// matches of c with that rule) finds anything, or nil. A rule under which
// the query has no words (count returns EINVALID) is passed over.
func FirstWider(c recall.PurgeCriteria, count func(c recall.PurgeCriteria) (int, error)) (*recall.PurgeWider, error) {
	m, err := NewMatch(c)
	if err != nil || m == nil {
		return nil, err
	}
	for w := m.Wider(); w != nil; w = w.Wider() {
		wc := c
		wc.Match = w.Rule
		n, err := count(wc)
		if recall.ErrorCode(err) == recall.EINVALID {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n > 0 {
			return &recall.PurgeWider{Match: w.Rule, Matches: n}, nil
		}
	}
	return nil, nil
}

// AddVersion notes in rules (memory id → narrowest rule any of its
// versions matches) the stored version snapshot (a JSON recall.Memory) of
// memory id: its title, content, context, category, tags and metadata.
func (m *Match) AddVersion(rules map[string]string, id string, snapshot []byte) error {
	if rules[id] == recall.MatchWords {
		return nil // nothing is narrower
	}
	var v recall.Memory
	if err := json.Unmarshal(snapshot, &v); err != nil {
		return fmt.Errorf("snapshot of %s: %w", id, err)
	}
	text := strings.Join([]string{v.Title, v.Content, v.Context, v.Category, strings.Join(v.Tags, " "), string(v.Metadata)}, " ")
	if r := m.RuleOf(text); r != "" && (rules[id] == "" || slices.Index(recall.MatchRules, r) < slices.Index(recall.MatchRules, rules[id])) {
		rules[id] = r
	}
	return nil
}
