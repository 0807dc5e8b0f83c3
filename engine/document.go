package engine

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/markdown"
)

// frontmatterKeys are the frontmatter keys a memory document may carry.
// Any other is refused, as config.toml refuses unknown settings: a key
// dropped in silence is a field the writer thinks was kept.
var frontmatterKeys = []string{"title", "key", "collection", "type", "category", "context", "project", "priority",
	"created_by", "tier", "tags", "related", "related_to", "confidence", "pinned", "occurred_at", "metadata"}

// MemoryFromDocument makes a memory from a markdown document: its YAML
// frontmatter gives the fields, its body the content. Callers apply their
// own overrides (flags, request fields), then FillMemoryDefaults.
func MemoryFromDocument(doc []byte) (*recall.Memory, error) {
	fm, body, err := markdown.SplitFrontmatter(doc)
	if err != nil {
		return nil, recall.Errorf(recall.EINVALID, "Malformed YAML frontmatter: %v. Fix the block between the --- lines.", err)
	}
	for _, name := range slices.Sorted(maps.Keys(fm)) {
		if !slices.Contains(frontmatterKeys, name) {
			return nil, recall.Errorf(recall.EINVALID, "Unknown frontmatter key %q: use %s, or put your own fields under metadata (metadata: {%s: ...}).",
				name, strings.Join(frontmatterKeys, ", "), name)
		}
	}
	m := &recall.Memory{
		Content:    string(body),
		Title:      fm.String("title"),
		Key:        fm.String("key"),
		Collection: fm.String("collection"),
		Type:       fm.String("type"),
		Category:   fm.String("category"),
		Context:    fm.String("context"),
		Project:    fm.String("project"),
		Priority:   fm.String("priority"),
		CreatedBy:  fm.String("created_by"),
		Tier:       fm.String("tier"),
		Tags:       fm.Strings("tags"),
		Related:    append(fm.Strings("related"), fm.Strings("related_to")...),
	}
	if v := fm.String("confidence"); v != "" {
		if m.Confidence, err = strconv.ParseFloat(v, 64); err != nil {
			return nil, recall.Errorf(recall.EINVALID, "Frontmatter confidence %q is not a number from 0 to 1.", v)
		}
	}
	if v, ok := fm["pinned"].(bool); ok {
		m.Pinned = v
	}
	if v := fm.String("occurred_at"); v != "" {
		if m.OccurredAt, err = ParseTime("occurred-at", v); err != nil {
			return nil, err
		}
	}
	if md, ok := fm["metadata"]; ok && md != nil {
		// Metadata is a JSON object on every other path; a scalar or a list
		// here would be stored as one.
		obj, isMap := md.(map[string]any)
		b, err := json.Marshal(obj)
		if !isMap || err != nil {
			return nil, recall.Errorf(recall.EINVALID, "Frontmatter metadata must be a mapping of names to values, like \"metadata: {source: web}\".")
		}
		m.Metadata = b
	}
	return m, nil
}

// FillMemoryDefaults gives a memory what nobody said: its title from the
// first heading, its key from the title, its author from the
// environment, and tags in their normal form.
func FillMemoryDefaults(m *recall.Memory) {
	if m.Title == "" {
		m.Title = recall.FirstH1(m.Content)
	}
	if m.Key == "" {
		m.Key = recall.Slugify(m.Title)
	}
	if m.CreatedBy == "" {
		m.CreatedBy = DefaultAuthor()
	}
	m.Tags = recall.NormalizeTags(m.Tags)
}

// DefaultAuthor names who wrote a memory when nobody says.
func DefaultAuthor() string {
	for _, env := range []string{"RECALL_AGENT", "USER", "USERNAME"} {
		if v := os.Getenv(env); v != "" {
			return v
		}
	}
	return "recall"
}

// ParseTime reads a time given as flag (named in the error): RFC 3339, "2006-01-02T15:04", or a date
// (midnight UTC).
func ParseTime(flag, s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, recall.Errorf(recall.EINVALID, "Invalid time for --%s: %q; use a date like 2026-01-31 or an RFC 3339 time like 2026-01-31T14:00:00Z.", flag, s)
}
