package sentence

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// vocabEntry is one [piece, score] pair of vocab.json.
type vocabEntry struct {
	piece string
	score float64
}

// parseVocab reads vocab.json, an array of [piece, score] pairs (a null
// score is 0, as the original adds it). It scans the bytes directly: the
// generic JSON decoder boxes each of the 8,002 pairs into interfaces and
// took a fifth of the encoder's load time. A piece with an escape is
// (or invalid UTF-8, which it replaces) is still unquoted by encoding/json, so that both read the same strings,
// and a score is parsed as encoding/json parses a float64.
func parseVocab(b []byte) ([]vocabEntry, error) {
	s := vocabScanner{b: b}
	var out []vocabEntry
	if !s.take('[') {
		return nil, s.fail("an array")
	}
	if s.take(']') {
		return out, s.end()
	}
	for {
		if !s.take('[') {
			return nil, fmt.Errorf("vocabulary entry %d is not [piece, score]", len(out))
		}
		piece, ok := s.str()
		if !ok || !s.take(',') {
			return nil, fmt.Errorf("vocabulary entry %d is not [piece, score]", len(out))
		}
		score, ok := s.num()
		if !ok || !s.take(']') {
			return nil, fmt.Errorf("vocabulary entry %d is not [piece, score]", len(out))
		}
		out = append(out, vocabEntry{piece, score})
		if s.take(']') {
			return out, s.end()
		}
		if !s.take(',') {
			return nil, s.fail("',' or ']'")
		}
	}
}

type vocabScanner struct {
	b []byte
	i int
}

func (s *vocabScanner) space() {
	for s.i < len(s.b) && strings.IndexByte(" \t\r\n", s.b[s.i]) >= 0 {
		s.i++
	}
}

// take consumes c, after any white space, if it comes next.
func (s *vocabScanner) take(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a JSON string.
func (s *vocabScanner) str() (string, bool) {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return "", false
	}
	start, escaped := s.i, false
	for s.i++; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '\\':
			escaped = true
			s.i++
		case c < 0x20:
			return "", false
		case c == '"':
			s.i++
			lit := s.b[start:s.i]
			if !escaped && utf8.Valid(lit) {
				return string(lit[1 : len(lit)-1]), true
			}
			var v string
			err := json.Unmarshal(lit, &v)
			return v, err == nil
		}
	}
	return "", false
}

// num reads a JSON number, or null as 0.
func (s *vocabScanner) num() (float64, bool) {
	s.space()
	start := s.i
	for s.i < len(s.b) && strings.IndexByte("+-.0123456789eE", s.b[s.i]) >= 0 {
		s.i++
	}
	if s.i == start {
		if strings.HasPrefix(string(s.b[s.i:min(s.i+4, len(s.b))]), "null") {
			s.i += 4
			return 0, true
		}
		return 0, false
	}
	lit := s.b[start:s.i]
	if !json.Valid(lit) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	return f, err == nil
}

func (s *vocabScanner) end() error {
	s.space()
	if s.i != len(s.b) {
		return s.fail("the end")
	}
	return nil
}

func (s *vocabScanner) fail(want string) error {
	return fmt.Errorf("vocabulary: want %s at byte %d", want, s.i)
}
