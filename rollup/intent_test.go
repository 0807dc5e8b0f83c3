package rollup_test

import (
	"testing"

	"github.com/recall-mem/recall/rollup"
)

func TestDetectIntent(t *testing.T) {
	tests := map[string]string{
		"which editor do I use":                rollup.IntentAny,
		"what did I change recently?":          rollup.IntentRecent,
		"editor preference this week":          rollup.IntentRecent,
		"What's my CURRENT theme":              rollup.IntentRecent,
		"which shell do I usually use":         rollup.IntentStable,
		"in general, tabs or spaces":           rollup.IntentStable,
		"what do I always forget, and lately?": rollup.IntentRecent,
		"weekly report":                        rollup.IntentAny,
		"this weekend":                         rollup.IntentAny,
		"":                                     rollup.IntentAny,
	}
	for text, want := range tests {
		if got := rollup.DetectIntent(text); got != want {
			t.Errorf("DetectIntent(%q) = %q, want %q", text, got, want)
		}
	}
}

func FuzzDetectIntent(f *testing.F) {
	f.Add("what editor do I use these days")
	f.Add("usually\x00 in general")
	f.Fuzz(func(t *testing.T, text string) {
		switch rollup.DetectIntent(text) {
		case rollup.IntentAny, rollup.IntentRecent, rollup.IntentStable:
		default:
			t.Fatal("unknown intent")
		}
	})
}
