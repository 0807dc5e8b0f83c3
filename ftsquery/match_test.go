package ftsquery_test

import (
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

// TestMatcher pins down the three --match rules on the text a user
// has in front of them: part of a key, several words, case.
func TestMatcher(t *testing.T) {
	const text = "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLQ before the deploy"
	for _, tt := range []struct {
		search, rule string
		want         bool
	}{
		{"AKIA", recall.MatchWords, false},
		{"AKIA", recall.MatchPrefix, true},
		{"akia deploy", recall.MatchPrefix, true},
		{"akia nothing", recall.MatchPrefix, false},
		{"IOSFODNN", recall.MatchPrefix, false},
		{"IOSFODNN", recall.MatchSubstring, true},
		{"key_id=akia", recall.MatchSubstring, true},
		{"deploy export", recall.MatchWords, true},
		{"AKIAIOSFODNN7EXAMPLQ", recall.MatchWords, true},
	} {
		match, err := ftsquery.Matcher(recall.PurgeCriteria{Search: tt.search, Match: tt.rule})
		if err != nil {
			t.Fatal(err)
		}
		if got := match(text); got != tt.want {
			t.Errorf("--search %q --match %s: %v, want %v", tt.search, tt.rule, got, tt.want)
		}
	}
}

// TestMatch_AddVersion keeps, per memory, the narrowest rule any of its
// versions matches, whichever field holds the words.
func TestMatch_AddVersion(t *testing.T) {
	m, err := ftsquery.NewMatch(recall.PurgeCriteria{Search: "akia", Match: recall.MatchSubstring})
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]string{}
	for _, snap := range []string{`{"content":"key=xAKIAy"}`, `{"tags":["akia"]}`, `{"content":"clean"}`} {
		if err := m.AddVersion(rules, "tr0000000001", []byte(snap)); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.AddVersion(rules, "tr0000000002", []byte(`{"metadata":{"k":"AKIAQ"}}`)); err != nil {
		t.Fatal(err)
	}
	if err := m.AddVersion(rules, "tr0000000003", []byte(`{"content":"clean"}`)); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"tr0000000001": recall.MatchWords, "tr0000000002": recall.MatchPrefix}
	if len(rules) != len(want) || rules["tr0000000001"] != want["tr0000000001"] || rules["tr0000000002"] != want["tr0000000002"] {
		t.Errorf("rules = %v, want %v", rules, want)
	}
	if err := m.AddVersion(rules, "tr0000000004", []byte(`not json`)); err == nil {
		t.Error("a damaged snapshot was accepted")
	}
}

// TestFirstWider passes over rules without words and stops at the first
// that matches.
func TestFirstWider(t *testing.T) {
	counts := map[string]int{recall.MatchPrefix: 0, recall.MatchSubstring: 3}
	w, err := ftsquery.FirstWider(recall.PurgeCriteria{Search: "AKIA"}, func(c recall.PurgeCriteria) (int, error) { return counts[c.Match], nil })
	if err != nil || w == nil || w.Match != recall.MatchSubstring || w.Matches != 3 {
		t.Fatalf("FirstWider = %+v, %v", w, err)
	}
	if w, err := ftsquery.FirstWider(recall.PurgeCriteria{}, nil); w != nil || err != nil {
		t.Fatalf("FirstWider without a search = %+v, %v", w, err)
	}
}
