package postgres

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/redact"
)

// checkMemory validates a memory before it is written, with the rules and
// messages of the SQLite store, and fills its collection.
func (db *DB) checkMemory(m *recall.Memory) error {
	if err := m.CheckUTF8(); err != nil {
		return err
	}
	if m.Collection == "" {
		m.Collection = recall.DefaultCollection
	}
	if err := recall.ValidateCollection(m.Collection); err != nil {
		return err
	}
	if m.Key != "" {
		if err := recall.ValidateKey(m.Key); err != nil {
			return err
		}
	}
	if m.ID != "" && !recall.IsID(m.ID) {
		return recall.Errorf(recall.EINVALID, "Invalid id %q: ids are \"tr\" and 10 lower-case hex digits; leave it empty to get a new one.", m.ID)
	}
	if !slices.Contains([]string{"", recall.TierWorking, recall.TierRegister, recall.TierArchive}, m.Tier) {
		return recall.Errorf(recall.EINVALID, "Invalid tier %q: use working, register or archive.", m.Tier)
	}
	if !slices.Contains([]string{"", recall.StatusActive, recall.StatusSuperseded, recall.StatusArchived, recall.StatusCompacted}, m.Status) {
		return recall.Errorf(recall.EINVALID, "Invalid status %q: use active, superseded, archived or compacted.", m.Status)
	}
	if !(m.Confidence >= 0 && m.Confidence <= 1) { // NaN too
		return recall.Errorf(recall.EINVALID, "Invalid confidence %g: use a number from 0 to 1.", m.Confidence)
	}
	if err := recall.ValidateAnchors(m.Anchors); err != nil {
		return err
	}
	if len(m.Metadata) > 0 && string(m.Metadata) != "null" {
		var obj map[string]json.RawMessage
		if json.Unmarshal(m.Metadata, &obj) != nil {
			return recall.Errorf(recall.EINVALID, "Metadata must be a JSON object, like {\"source\": \"web\"}.")
		}
	}
	if len(m.Content) > db.maxContent() {
		return recall.Errorf(recall.ETOOLARGE, "Content is %d bytes, over the limit of %d: split it into several memories or raise [limits] max_content_bytes in config.toml.", len(m.Content), db.maxContent())
	}
	if strings.TrimSpace(m.Content) == "" && m.Title == "" {
		return recall.Errorf(recall.EINVALID, "Empty memory: give some content (a file, stdin or text) or a title.")
	}
	return redact.Fields(db.Redactor, &m.Metadata, &m.Tags, &m.Title, &m.Content, &m.Context, &m.Category)
}

// fillDefaults gives a new memory the defaults a put promises.
func fillDefaults(m *recall.Memory, now time.Time) {
	if m.Tier == "" {
		m.Tier = recall.TierRegister
	}
	if m.Status == "" {
		m.Status = recall.StatusActive
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = now
	}
	if m.UpdatedAt.IsZero() {
		m.UpdatedAt = now
	}
	if m.OccurredAt.IsZero() {
		m.OccurredAt = m.CreatedAt
	}
}

// applyUpdate changes m as upd says and validates the result.
func (db *DB) applyUpdate(m *recall.Memory, upd recall.MemoryUpdate) error {
	for _, f := range []struct {
		dst *string
		v   *string
	}{{&m.Title, upd.Title}, {&m.Content, upd.Content}, {&m.Type, upd.Type}, {&m.Category, upd.Category},
		{&m.Context, upd.Context}, {&m.Project, upd.Project}, {&m.Priority, upd.Priority}, {&m.Tier, upd.Tier},
		{&m.Status, upd.Status}, {&m.Key, upd.Key}, {&m.Collection, upd.Collection}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	switch {
	case upd.Tags != nil && upd.MergeTags:
		m.Tags = union(m.Tags, *upd.Tags)
	case upd.Tags != nil:
		m.Tags = *upd.Tags
	}
	if upd.Related != nil {
		m.Related = *upd.Related
	}
	if upd.Confidence != nil {
		m.Confidence = *upd.Confidence
	}
	if upd.Pinned != nil {
		m.Pinned = *upd.Pinned
	}
	if upd.OccurredAt != nil {
		m.OccurredAt = upd.OccurredAt.UTC()
	}
	if upd.ReviewedAt != nil {
		t := upd.ReviewedAt.UTC()
		m.ReviewedAt = &t
	}
	if upd.SnoozedUntil != nil {
		t := upd.SnoozedUntil.UTC()
		m.SnoozedUntil = &t
	}
	if upd.ClearSnooze {
		m.SnoozedUntil = nil
	}
	if upd.Metadata != nil {
		patched, err := patchObject(m.Metadata, *upd.Metadata)
		if err != nil {
			return err
		}
		m.Metadata = patched
	}
	if m.Status == "" || m.Tier == "" {
		return recall.Errorf(recall.EINVALID, "Tier and status cannot be empty.")
	}
	// Stored anchors are not checked again unless the update sets them,
	// as on SQLite: an archive or a review must not fail on old anchors.
	kept := m.Anchors
	if upd.Anchors != nil {
		kept = *upd.Anchors
	}
	m.Anchors = nil
	if upd.Anchors != nil {
		m.Anchors = kept
	}
	err := db.checkMemory(m)
	m.Anchors = kept
	return err
}

// union returns a followed by the items of b it lacks, in order.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// patchObject applies a JSON merge patch at the top level: each key of
// patch replaces the key of base, and a null removes it.
func patchObject(base, patch json.RawMessage) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(patch, &p); err != nil || p == nil {
		return nil, recall.Errorf(recall.EINVALID, "Metadata must be a JSON object, like {\"source\": \"web\"}.")
	}
	obj := map[string]json.RawMessage{}
	if len(base) > 0 {
		_ = json.Unmarshal(base, &obj) // unreadable stored metadata is replaced
	}
	for k, v := range p {
		if string(v) == "null" {
			delete(obj, k)
			continue
		}
		obj[k] = v
	}
	if len(obj) == 0 {
		return nil, nil
	}
	return json.Marshal(obj)
}

// redactText redacts free text that has no tags, such as a session's
// summary; the counts go into meta.
func (db *DB) redactText(meta *json.RawMessage, fields ...*string) error {
	return redact.Fields(db.Redactor, meta, nil, fields...)
}
