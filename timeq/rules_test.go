package timeq

import "testing"

// rules are built once, at first use: every Parse sees the same compiled
// list, in priority order, whatever goroutine asked first.
func TestRules_BuiltOnce(t *testing.T) {
	a, b := rules(), rules()
	if len(a) != 14 || len(a) != len(b) {
		t.Fatalf("rules: %d then %d, want 14", len(a), len(b))
	}
	for i := range a {
		if a[i].re != b[i].re {
			t.Errorf("rule %d (%s) compiled twice", i, a[i].re)
		}
	}
	if last := a[len(a)-1]; last.window != nil || !last.re.MatchString("what did i do recently") {
		t.Errorf("the last rule is %s, want the recent rule (no window)", last.re)
	}
}
