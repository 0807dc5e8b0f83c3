package sqlite

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A search reads a memory's list columns (tags, related, anchors) for
// every candidate, some two hundred rows; encoding/json decoding each
// through reflection, "[]" included, was most of what reading a row cost
// after SQLite. The lists recall writes (jsonText) are compact, and their
// strings mostly plain ASCII: those are read by a scan that gives what
// encoding/json would; anything else still goes through encoding/json.

// decodeStrings decodes the JSON list column name into dst.
func decodeStrings(name, s string, dst *[]string) error {
	if v, ok := plainStrings(s); ok {
		*dst = v
		return nil
	}
	return decodeJSON(name, s, dst)
}

// decodeAnchors decodes the JSON anchors column into dst.
func decodeAnchors[T any](s string, dst *[]T) error {
	if s == "[]" {
		*dst = []T{}
		return nil
	}
	return decodeJSON("anchors", s, dst)
}

func decodeJSON(name, s string, dst any) error {
	if s == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(s), dst); err != nil {
		return fmt.Errorf("decode %s: %w", name, err)
	}
	return nil
}

// plainStrings reads s if it is a compact JSON list of strings of
// printable ASCII without escapes (`[]`, `["a","b c"]`), as
// encoding/json would into a nil []string: an empty list is an empty,
// not nil, slice. It reports false for anything else.
func plainStrings(s string) ([]string, bool) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, false
	}
	body := s[1 : len(s)-1]
	if body == "" {
		return []string{}, true
	}
	out := make([]string, 0, strings.Count(body, `","`)+1)
	for {
		if len(body) < 2 || body[0] != '"' {
			return nil, false
		}
		end := 1
		for end < len(body) && body[end] != '"' {
			if c := body[end]; c < 0x20 || c > 0x7e || c == '\\' {
				return nil, false
			}
			end++
		}
		if end == len(body) {
			return nil, false
		}
		out = append(out, body[1:end])
		body = body[end+1:]
		if body == "" {
			return out, true
		}
		if body[0] != ',' {
			return nil, false
		}
		body = body[1:]
	}
}
