package markdown

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/recall-mem/recall"
)

// MetadataFile is seed 000's per-entry metadata, relative to the root.
const MetadataFile = "memory/.recall/metadata.json"

// Metadata is metadata.json: per id, an object of fields. Fields recall
// does not know are kept as they are, so tools built on the seed's layout
// keep working.
type Metadata map[string]map[string]any

// ReadMetadata reads metadata.json under root; ok is false when the file
// does not exist.
func ReadMetadata(root string) (md Metadata, ok bool, err error) {
	buf, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(MetadataFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", MetadataFile, err)
	}
	md, err = DecodeMetadata(buf)
	if err != nil {
		return nil, true, err
	}
	return md, true, nil
}

// DecodeMetadata parses metadata.json. Returns EINVALID when it is not an
// object of objects.
func DecodeMetadata(buf []byte) (Metadata, error) {
	md := Metadata{}
	if len(bytes.TrimSpace(buf)) == 0 {
		return md, nil
	}
	dec := json.NewDecoder(bytes.NewReader(buf))
	dec.UseNumber()
	if err := dec.Decode(&md); err != nil {
		return nil, recall.Errorf(recall.EINVALID, "%s is not a JSON object of entries: %v. Fix or remove it, then retry.", MetadataFile, err)
	}
	if md == nil {
		md = Metadata{}
	}
	return md, nil
}

// Encode writes metadata deterministically: keys sorted, two-space
// indentation, a final newline. The same input always gives the same bytes.
func (md Metadata) Encode() []byte {
	if md == nil {
		md = Metadata{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(md); err != nil {
		return []byte("{}\n") // unreachable: only JSON values are stored
	}
	return buf.Bytes()
}

// Write saves metadata.json under root atomically.
func (md Metadata) Write(root string) error {
	return WriteFileAtomic(filepath.Join(root, filepath.FromSlash(MetadataFile)), md.Encode(), 0o644)
}

// metaTime formats a time as the seed does (UTC, RFC 3339), or null.
func metaTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// SetMemory writes m's state into its entry, keeping unknown fields.
func (md Metadata) SetMemory(m *recall.Memory) {
	e := md[m.ID]
	if e == nil {
		e = map[string]any{}
		md[m.ID] = e
	}
	created := m.CreatedAt
	e["created_at"] = metaTime(&created)
	e["last_reviewed_at"] = metaTime(m.ReviewedAt)
	e["pinned"] = m.Pinned
	e["snoozed_until"] = metaTime(m.SnoozedUntil)
	e["status"] = m.Status
	e["tier"] = m.Tier
}

// Update returns the store changes that id's entry asks for: pinned,
// status, last review, snooze. Unparseable fields are skipped.
func (md Metadata) Update(id string) (recall.MemoryUpdate, bool) {
	e, ok := md[id]
	if !ok {
		return recall.MemoryUpdate{}, false
	}
	var upd recall.MemoryUpdate
	if v, ok := e["pinned"].(bool); ok {
		upd.Pinned = &v
	}
	if v, ok := e["status"].(string); ok {
		switch v {
		case recall.StatusActive, recall.StatusSuperseded, recall.StatusArchived, recall.StatusCompacted:
			upd.Status = &v
		}
	}
	if t, ok := parseMetaTime(e["last_reviewed_at"]); ok {
		upd.ReviewedAt = &t
	}
	if t, ok := parseMetaTime(e["snoozed_until"]); ok {
		upd.SnoozedUntil = &t
	}
	return upd, true
}

// CreatedAt returns the entry's created_at, if it has a readable one.
func (md Metadata) CreatedAt(id string) (time.Time, bool) {
	return parseMetaTime(md[id]["created_at"])
}

func parseMetaTime(v any) (time.Time, bool) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
