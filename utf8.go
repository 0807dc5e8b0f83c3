package recall

import (
	"unicode/utf8"
)

// Text is stored, exported and served as UTF-8 (JSON cannot carry other
// bytes: encoders turn them into U+FFFD). Text that is not valid UTF-8 is
// refused when it is written, so that no round trip changes it silently.

// textField is one named free-text field to check.
type textField struct{ name, value string }

// checkUTF8 returns EINVALID naming the first field that is not valid UTF-8.
func checkUTF8(fields ...textField) error {
	for _, f := range fields {
		if !utf8.ValidString(f.value) {
			return Errorf(EINVALID, "The %s is not valid UTF-8 text: convert it to UTF-8 (for example with iconv) and try again.", f.name)
		}
	}
	return nil
}

func listFields(name string, vs []string) []textField {
	out := make([]textField, len(vs))
	for i, v := range vs {
		out[i] = textField{name, v}
	}
	return out
}

// CheckUTF8 returns EINVALID if any text field of m is not valid UTF-8.
func (m *Memory) CheckUTF8() error {
	fs := []textField{{"id", m.ID}, {"key", m.Key}, {"collection", m.Collection}, {"type", m.Type},
		{"title", m.Title}, {"content", m.Content}, {"category", m.Category}, {"context", m.Context},
		{"project", m.Project}, {"priority", m.Priority}, {"author (created_by)", m.CreatedBy},
		{"tier", m.Tier}, {"status", m.Status}, {"metadata", string(m.Metadata)}}
	fs = append(fs, listFields("tag", m.Tags)...)
	fs = append(fs, listFields("related id", m.Related)...)
	for _, a := range m.Anchors {
		fs = append(fs, textField{"anchor path", a.Path}, textField{"anchor hash", a.Hash})
	}
	return checkUTF8(fs...)
}

// CheckUTF8 returns EINVALID if any text field of o is not valid UTF-8.
func (o *Observation) CheckUTF8() error {
	return checkUTF8(textField{"type", o.Type}, textField{"key", o.Key}, textField{"session", o.Session},
		textField{"project", o.Project}, textField{"tool", o.Tool}, textField{"file", o.File},
		textField{"content", o.Content}, textField{"metadata", string(o.Metadata)}, textField{"status", o.Status})
}

// CheckUTF8 returns EINVALID if any text field of s is not valid UTF-8.
func (s *Session) CheckUTF8() error {
	return checkUTF8(textField{"session id", s.ID}, textField{"project", s.Project}, textField{"agent", s.Agent},
		textField{"summary", s.Summary}, textField{"learned text", s.Learned})
}

// CheckUTF8 returns EINVALID if any text field of e is not valid UTF-8.
func (e SessionEnd) CheckUTF8() error {
	return checkUTF8(textField{"session id", e.ID}, textField{"summary", e.Summary},
		textField{"learned text", e.Learned}, textField{"pin title", e.Pin})
}
