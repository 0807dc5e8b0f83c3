package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/recall-mem/recall"
	"github.com/rogpeppe/go-internal/diff"
)

// MemoryDiff is what changed between two versions of a memory.
type MemoryDiff struct {
	ID   string `json:"id"`
	From int    `json:"from"`
	To   int    `json:"to"`
	// Fields lists the fields whose values differ, content aside, by name
	// (the JSON field names of a memory), with both values.
	Fields []FieldChange `json:"fields"`
	// ContentChanged says whether the content differs.
	ContentChanged bool `json:"content_changed"`
	// Unified is a unified diff of both versions, fields then content;
	// empty when nothing differs.
	Unified string `json:"diff"`
}

// FieldChange is one field's old and new value.
type FieldChange struct {
	Field string `json:"field"`
	From  any    `json:"from"`
	To    any    `json:"to"`
}

// Diff shows what changed between versions from and to of the memory ref,
// as a unified diff of their fields and content.
func (e *Engine) Diff(ctx context.Context, ref string, from, to int) ([]byte, error) {
	d, err := e.DiffVersions(ctx, ref, from, to)
	if err != nil {
		return nil, err
	}
	return []byte(d.Unified), nil
}

// DiffVersions compares versions from and to of the memory ref by value:
// times are compared as instants to the millisecond a store keeps, so a
// version read back with less precision is not a change. to 0 means the
// latest version, from 0 the one before to.
func (e *Engine) DiffVersions(ctx context.Context, ref string, from, to int) (*MemoryDiff, error) {
	if to == 0 {
		vs, err := e.Versions(ctx, ref)
		if err != nil {
			return nil, err
		}
		if len(vs) == 0 {
			return nil, recall.Errorf(recall.ENOTFOUND, "Memory %s has no versions.", ref)
		}
		to = vs[len(vs)-1].Version
	}
	if from == 0 {
		from = to - 1
		if from < 1 {
			return nil, recall.Errorf(recall.EINVALID, "Memory %s has one version only: there is nothing to compare it with.", ref)
		}
	}
	old, err := e.Version(ctx, ref, from)
	if err != nil {
		return nil, err
	}
	cur, err := e.Version(ctx, ref, to)
	if err != nil {
		return nil, err
	}
	d := &MemoryDiff{ID: cur.ID, From: from, To: to, Fields: fieldChanges(old, cur), ContentChanged: old.Content != cur.Content}
	if d.Fields == nil {
		d.Fields = []FieldChange{} // JSON says [] for no change, not null
	}
	if len(d.Fields) > 0 || d.ContentChanged {
		d.Unified = string(diff.Diff(fmt.Sprintf("%s@%d", old.ID, from), renderForDiff(old), fmt.Sprintf("%s@%d", cur.ID, to), renderForDiff(cur)))
	}
	return d, nil
}

// diffFields is a version as the values a diff compares: its JSON fields,
// without the content (compared on its own) and the write's bookkeeping
// (version and update time differ in every pair of versions).
func diffFields(m *recall.Memory) map[string]any {
	fields := *m
	fields.Content, fields.Version = "", 0
	fields.UpdatedAt = time.Time{}
	ms := func(t time.Time) time.Time { return t.Truncate(time.Millisecond).UTC() }
	fields.CreatedAt, fields.OccurredAt = ms(fields.CreatedAt), ms(fields.OccurredAt)
	for _, p := range []**time.Time{&fields.ReviewedAt, &fields.SnoozedUntil} {
		if *p != nil {
			t := ms(**p)
			*p = &t
		}
	}
	b, _ := json.Marshal(fields)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	delete(out, "content")
	delete(out, "version")
	delete(out, "updated_at")
	return out
}

func fieldChanges(old, cur *recall.Memory) []FieldChange {
	a, b := diffFields(old), diffFields(cur)
	names := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var out []FieldChange
	for _, k := range names {
		if !reflect.DeepEqual(a[k], b[k]) {
			out = append(out, FieldChange{Field: k, From: a[k], To: b[k]})
		}
	}
	return out
}

// renderForDiff shows a version as its fields then its content, so that a
// diff shows metadata changes as well as text changes; the fields are the
// values compared (diffFields), so a difference in form only never shows.
func renderForDiff(m *recall.Memory) []byte {
	b, _ := json.MarshalIndent(diffFields(m), "", "  ")
	content := m.Content
	if len(content) > 0 && content[len(content)-1] != '\n' {
		content += "\n"
	}
	return append(append(b, "\n---\n"...), content...)
}
