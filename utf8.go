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

// CheckUTF8 returns EINVALID if any text field of m is not valid UTF-8.
// It builds no list of the fields: every write checks its memory, and an
// import's allocations are paid for in collections.
func (m *Memory) CheckUTF8() error {
	if err := checkUTF8(textField{"id", m.ID}, textField{"key", m.Key}, textField{"collection", m.Collection}, textField{"type", m.Type},
		textField{"title", m.Title}, textField{"content", m.Content}, textField{"category", m.Category}, textField{"context", m.Context},
		textField{"project", m.Project}, textField{"priority", m.Priority}, textField{"author (created_by)", m.CreatedBy},
		textField{"tier", m.Tier}, textField{"status", m.Status}); err != nil {
		return err
	}
	if !utf8.Valid(m.Metadata) {
		return checkUTF8(textField{"metadata", string(m.Metadata)})
	}
	for _, v := range m.Tags {
		if err := checkUTF8(textField{"tag", v}); err != nil {
			return err
		}
	}
	for _, v := range m.Related {
		if err := checkUTF8(textField{"related id", v}); err != nil {
			return err
		}
	}
	for _, a := range m.Anchors {
		if err := checkUTF8(textField{"anchor path", a.Path}, textField{"anchor hash", a.Hash}); err != nil {
			return err
		}
	}
	return nil
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
