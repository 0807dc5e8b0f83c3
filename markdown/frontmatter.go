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
// nil map and the whole input. Malformed YAML, or YAML that is not a
// mapping, is an error, and the whole input is returned as the body.
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
			fm, err := decodeFrontmatter(rest[:off])
			if err != nil {
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

// decodeFrontmatter decodes a block that must be a YAML mapping. A block of
// blanks and comments is an empty map; any other kind of YAML ("~", "&0",
// a list, a bare word) is an error, because decoding it into a map would
// give nil and the block would vanish from both frontmatter and body.
func decodeFrontmatter(block []byte) (Frontmatter, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(block, &doc); err != nil {
		return nil, err
	}
	fm := Frontmatter{}
	if len(doc.Content) == 0 {
		return fm, nil
	}
	if n := doc.Content[0]; n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: the block between the --- lines must be \"key: value\" lines, not a YAML %s", n.Line, kindName(n))
	}
	if err := doc.Decode(&fm); err != nil {
		return nil, err
	}
	return fm, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	default:
		return "scalar " + n.ShortTag()
	}
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
