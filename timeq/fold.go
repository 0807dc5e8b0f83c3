package timeq

import (
	"unicode"
	"unicode/utf8"
)

// folded is text lower-cased for matching, with the way back: orig[i] is
// the offset in the original text of the rune that byte i of lower
// belongs to, and orig[len(lower)] is len(text). strings.ToLower cannot be
// used with the original's offsets: it changes byte lengths ("Ⱥ" is 2
// bytes, "ⱥ" 3; the Kelvin sign "K" is 3, "k" 1) and turns an invalid
// byte into a 3-byte U+FFFD.
type folded struct {
	lower string
	orig  []int
}

func fold(text string) folded {
	buf := make([]byte, 0, len(text))
	orig := make([]int, 0, len(text)+1)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && n <= 1 {
			// An invalid byte stays as it is: it matches nothing the
			// rules look for, and keeps its length.
			buf = append(buf, text[i])
			orig = append(orig, i)
			i++
			continue
		}
		before := len(buf)
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
		for range len(buf) - before {
			orig = append(orig, i)
		}
		i += n
	}
	orig = append(orig, len(text))
	return folded{lower: string(buf), orig: orig}
}

// at maps an offset in lower to one in the original text. Offsets inside
// a rune map to its start, so any offset gives a valid slice bound.
func (f folded) at(i int) int { return f.orig[i] }
