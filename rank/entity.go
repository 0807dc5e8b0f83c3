package rank

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/recall-mem/recall"
)

// Names a query gives (people, projects, tools) are matched against what a
// memory says about itself beyond its text: who wrote or said it, what it
// is about, its project, tags and metadata values. A memory said by or
// about the one a question names is far more often its answer (on LoCoMo,
// 97 % of questions naming a person have evidence said by or about them).

// queryNames returns the capitalised words of a query that are not the
// first word of a sentence (there, capitals say nothing), lower-cased, with
// a possessive "'s" removed. Stopwords are never names.
func queryNames(text string) map[string]bool {
	out := map[string]bool{}
	start := true
	for _, f := range strings.Fields(text) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		first := start
		start = strings.ContainsAny(f[len(f)-1:], ".?!")
		if w == "" || first {
			continue
		}
		r := []rune(w)
		if !unicode.IsUpper(r[0]) || stopwords[strings.ToLower(w)] {
			continue
		}
		out[strings.ToLower(w)] = true
	}
	return out
}

// maxEntityValue bounds the metadata strings read as names: longer values
// are text, not names.
const maxEntityValue = 80

// namesMatch reports whether one of m's author, project, category, tags or
// top-level metadata strings (or a word of one) is among names.
func namesMatch(m *recall.Memory, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	hit := func(v string) bool {
		if v == "" || len(v) > maxEntityValue {
			return false
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if names[w] {
				return true
			}
		}
		return false
	}
	if hit(m.CreatedBy) || hit(m.Project) || hit(m.Category) {
		return true
	}
	for _, t := range m.Tags {
		if hit(t) {
			return true
		}
	}
	if len(m.Metadata) == 0 {
		return false
	}
	var meta map[string]any
	if json.Unmarshal(m.Metadata, &meta) != nil {
		return false
	}
	for _, v := range meta {
		switch v := v.(type) {
		case string:
			if hit(v) {
				return true
			}
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok && hit(s) {
					return true
				}
			}
		}
	}
	return false
}
