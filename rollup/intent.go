package rollup

import (
	"strings"
	"unicode"

	"github.com/recall-mem/recall"
)

// Intents a query can show (seed 004's query strategy).
const (
	IntentAny    = ""       // no cue: every tier
	IntentRecent = "recent" // "recent", "today", "this week": raw, 4h and daily
	IntentStable = "stable" // "usually", "always", "in general": weekly and monthly
)

// Cue words, kept minimal on purpose: the ranking package has the full
// time-expression parser; this only decides which tiers to read.
var (
	recentWords = words("recent recently latest lately currently current today tonight yesterday now nowadays just new newest")
	recentPairs = []string{"this week", "last day", "past day", "last few days", "this morning", "these days", "right now"}
	stableWords = words("usually always generally typically normally habitually habit habits stable long-term overall ever")
	stablePairs = []string{"in general", "most of the time", "over time", "long term", "all along"}
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// DetectIntent says whether text asks about what is true now (recent),
// about lasting habits (stable), or neither. Recent wins when both cue.
func DetectIntent(text string) string {
	lower := strings.ToLower(text)
	toks := strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' })
	norm := " " + strings.Join(toks, " ") + " "
	has := func(set map[string]bool, pairs []string) bool {
		for _, t := range toks {
			if set[t] {
				return true
			}
		}
		for _, p := range pairs {
			if strings.Contains(norm, " "+p+" ") {
				return true
			}
		}
		return false
	}
	switch {
	case has(recentWords, recentPairs):
		return IntentRecent
	case has(stableWords, stablePairs):
		return IntentStable
	}
	return IntentAny
}

// TiersFor returns the bucket types an intent reads.
func TiersFor(intent string) []string {
	switch intent {
	case IntentRecent:
		return []string{recall.Bucket4h, recall.BucketDaily}
	case IntentStable:
		return []string{recall.BucketWeekly, recall.BucketMonthly}
	}
	return recall.BucketTypes
}
