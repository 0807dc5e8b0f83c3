// Package markdown reads and writes the markdown that people and agents
// edit: frontmatter documents and the managed memory files.
package markdown

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Frontmatter is the YAML block at the top of a document, decoded.
type Frontmatter map[string]any

// SplitFrontmatter separates a leading YAML frontmatter block, fenced by
// lines of exactly "---", from the body. A document without one returns a
// nil map and the whole input. Malformed YAML is an error; the body is
// returned untouched either way.
func SplitFrontmatter(doc []byte) (Frontmatter, []byte, error) {
	rest, ok := cutLine(doc, "---")
	if !ok {
		return nil, doc, nil
	}
	for off := 0; off <= len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		next := len(rest) + 1
		if end >= 0 {
			line, next = rest[off:off+end], off+end+1
		}
		if t := strings.TrimRight(string(line), "\r"); t == "---" || t == "..." {
			fm := Frontmatter{}
			if err := yaml.Unmarshal(rest[:off], &fm); err != nil {
				return nil, doc, fmt.Errorf("frontmatter: %w", err)
			}
			if next > len(rest) {
				return fm, nil, nil
			}
			return fm, rest[next:], nil
		}
		off = next
	}
	return nil, doc, nil // an opening fence with no closing one is body text
}

// cutLine removes a first line equal to want (ignoring a trailing CR).
func cutLine(doc []byte, want string) ([]byte, bool) {
	i := bytes.IndexByte(doc, '\n')
	if i < 0 {
		return nil, false
	}
	if strings.TrimRight(string(doc[:i]), "\r") != want {
		return nil, false
	}
	return doc[i+1:], true
}

// String returns the field as a string ("" if absent); scalars of other
// kinds are formatted.
func (f Frontmatter) String(name string) string {
	switch v := f[name].(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// Strings returns a list field; a comma-separated string is split.
func (f Frontmatter) Strings(name string) []string {
	switch v := f[name].(type) {
	case []any:
		var out []string
		for _, e := range v {
			if s := strings.TrimSpace(fmt.Sprint(e)); s != "" {
				out = append(out, s)
			}
		}
		return out
	case string:
		return SplitList(v)
	}
	return nil
}

// SplitList splits "a, b,c" into trimmed, non-empty items.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
