package sentence

import (
	"slices"
	"testing"
)

func TestTokenizerEdges(t *testing.T) {
	e := Default()
	for _, c := range []struct {
		text string
		want []int
	}{
		{"", nil},
		{"東京", []int{30, 0}}, // '▁' then one unknown id for the whole run
	} {
		got, err := e.Tokens(c.text)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Tokens(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{"", " ", "hello world", "東京で寿司", "😀🚀", "\xff\xfe", "a\u0301"} {
		f.Add(s)
	}
	e := Default()
	if err := e.Load(); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids := e.tok.Encode(s)
		for _, id := range ids {
			if id < 0 || id >= len(e.tok.width) || id > 0 && id < reserved {
				t.Fatalf("Encode(%q) gave id %d", s, id)
			}
		}
		if v := e.model.Forward(ids); len(v) != Dim {
			t.Fatalf("Forward gave %d values", len(v))
		}
	})
}
