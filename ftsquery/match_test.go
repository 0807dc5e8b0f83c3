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
