package sqlite

import (
	"encoding/json"

	"github.com/recall-mem/recall"
)

// apply changes m in place as upd says, validating and redacting as a put
// would.
func (db *DB) apply(m *recall.Memory, upd recall.MemoryUpdate) error {
	str := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	str(&m.Title, upd.Title)
	str(&m.Content, upd.Content)
	str(&m.Type, upd.Type)
	str(&m.Category, upd.Category)
	str(&m.Context, upd.Context)
	str(&m.Project, upd.Project)
	str(&m.Priority, upd.Priority)
	str(&m.Tier, upd.Tier)
	str(&m.Status, upd.Status)
	str(&m.Key, upd.Key)
	str(&m.Collection, upd.Collection)
	if upd.Tags != nil {
		if upd.MergeTags {
			m.Tags = mergeTags(m.Tags, *upd.Tags)
		} else {
			m.Tags = *upd.Tags
		}
	}
	if upd.Related != nil {
		m.Related = *upd.Related
	}
	if upd.Anchors != nil {
		m.Anchors = *upd.Anchors
	}
	if upd.Confidence != nil {
		m.Confidence = *upd.Confidence
	}
	if upd.Pinned != nil {
		m.Pinned = *upd.Pinned
	}
	if upd.OccurredAt != nil {
		m.OccurredAt = *upd.OccurredAt
	}
	if upd.ReviewedAt != nil {
		t := *upd.ReviewedAt
		m.ReviewedAt = &t
	}
	if upd.SnoozedUntil != nil {
		t := *upd.SnoozedUntil
		m.SnoozedUntil = &t
	}
	if upd.ClearSnooze {
		m.SnoozedUntil = nil
	}
	if upd.Metadata != nil {
		merged, err := mergeMetadata(m.Metadata, *upd.Metadata)
		if err != nil {
			return err
		}
		m.Metadata = merged
	}
	if m.Status == "" || m.Tier == "" {
		return recall.Errorf(recall.EINVALID, "Tier and status cannot be empty.")
	}
	// Anchors stored before they were validated stay as they are: an
	// update that leaves them alone (an archive, a review) must not fail
	// on them. Whoever reads them refuses a path outside the project.
	kept := m.Anchors
	if upd.Anchors == nil {
		m.Anchors = nil
	}
	err := db.clean(m)
	m.Anchors = kept
	return err
}

// mergeTags appends the new tags that are not there yet, keeping order.
func mergeTags(old, add []string) []string {
	seen := make(map[string]bool, len(old))
	out := append([]string(nil), old...)
	for _, t := range old {
		seen[t] = true
	}
	for _, t := range add {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// mergeMetadata merges patch into base key by key (RFC 7396 at the top
// level): a null value removes the key.
func mergeMetadata(base, patch json.RawMessage) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(patch, &p); err != nil {
		return nil, recall.Errorf(recall.EINVALID, "Metadata must be a JSON object, like {\"source\": \"web\"}.")
	}
	b := map[string]json.RawMessage{}
	if len(base) > 0 {
		if err := json.Unmarshal(base, &b); err != nil {
			b = map[string]json.RawMessage{}
		}
	}
	for k, v := range p {
		if string(v) == "null" {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	if len(b) == 0 {
		return nil, nil
	}
	return json.Marshal(b)
}
