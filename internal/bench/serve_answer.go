package bench

import (
	"encoding/json"
	"errors"
	"fmt"
)

// checkHits checks an answer's body: one JSON value, an object with a
// list of hits, at most limit, each an object with a memory object that
// has a non-empty string id; it returns how many hits the list holds.
//
// It reads the body twice, once to check it is JSON (json.Valid) and
// once to walk to the ids, and builds nothing: decoding it with
// encoding/json into a struct of the ids alone took about twice as long
// (the decoder checks the whole body, then scans it again value by value
// to skip the memories' other fields), and on the benchmark's shared
// cores the clients' CPU counts against the server's. Keys are compared
// as written, byte for byte (encoding/json would also take escaped or
// differently cased spellings): recall's server writes them lowercase,
// without escapes, and an empty list as [].
func checkHits(body []byte, limit int) (int, error) {
	if !json.Valid(body) {
		return 0, fmt.Errorf("the answer is not one JSON value: %.200s", body)
	}
	w := walker{b: body}
	hits, found := 0, false
	err := w.object(func(key []byte) error {
		if string(key) != "hits" {
			return w.skip()
		}
		found, hits = true, 0
		return w.array(func() error {
			hits++
			if hits > limit {
				return fmt.Errorf("more than the %d hits asked for", limit)
			}
			id := false
			err := w.object(func(key []byte) error {
				if string(key) != "memory" {
					return w.skip()
				}
				return w.object(func(key []byte) error {
					if string(key) != "id" {
						return w.skip()
					}
					if w.peek() != '"' {
						return errors.New("a memory id that is not a string")
					}
					id = len(w.str()) > 0
					return nil
				})
			})
			if err == nil && !id {
				err = errors.New("a hit without a memory id")
			}
			return err
		})
	})
	if err == nil && !found {
		err = errors.New("no hits list")
	}
	if err != nil {
		return 0, fmt.Errorf("the answer: %w: %.200s", err, body)
	}
	return hits, nil
}

// walker reads a body that json.Valid accepted, value by value, without
// building values.
type walker struct {
	b []byte
	i int
}

var errNotJSONShape = errors.New("a value of another kind")

// peek skips white space and returns the next byte (0 at the end).
func (w *walker) peek() byte {
	for w.i < len(w.b) {
		switch c := w.b[w.i]; c {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return c
		}
	}
	return 0
}

// str reads the string that starts at the next byte and returns its text
// as written (escapes kept).
func (w *walker) str() []byte {
	start := w.i + 1
	for j := start; ; j++ {
		switch w.b[j] {
		case '\\':
			j++
		case '"':
			w.i = j + 1
			return w.b[start:j]
		}
	}
}

// skip passes over the next value.
func (w *walker) skip() error {
	switch w.peek() {
	case '"':
		w.str()
	case '{', '[':
		depth := 0
		for {
			switch w.b[w.i] {
			case '"':
				w.str()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			w.i++
			if depth == 0 {
				return nil
			}
		}
	default: // a number, true, false or null
		for w.i < len(w.b) {
			switch w.b[w.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return nil
			}
			w.i++
		}
	}
	return nil
}

// object reads the object that is the next value, calling member with
// each key; member reads or skips the key's value.
func (w *walker) object(member func(key []byte) error) error {
	return w.list('{', '}', func() error {
		w.peek()
		key := w.str()
		w.peek() // the colon
		w.i++
		return member(key)
	})
}

// array reads the array that is the next value, calling elem for each
// element; elem reads or skips it.
func (w *walker) array(elem func() error) error { return w.list('[', ']', elem) }

// list reads the object or array that is the next value, opened and
// closed by open and close, calling item for each member or element.
func (w *walker) list(open, close byte, item func() error) error {
	if w.peek() != open {
		return errNotJSONShape
	}
	w.i++
	if w.peek() == close {
		w.i++
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		if w.peek() == close {
			w.i++
			return nil
		}
		w.i++ // the comma
	}
}
