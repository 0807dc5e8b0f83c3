package mcp

import (
	"encoding/json"
	"time"

	"github.com/recall-mem/recall"
)

// snippetRunes bounds a compact result's text: enough to recognise a
// memory, few enough tokens to list dozens.
const snippetRunes = 160

// memoryBrief is a compact memory: enough to choose one, then memory_get.
type memoryBrief struct {
	ID         string  `json:"id"`
	Key        string  `json:"key,omitempty"`
	Title      string  `json:"title,omitempty"`
	Type       string  `json:"type,omitempty"`
	Collection string  `json:"collection,omitempty" jsonschema:"left out for the default collection"`
	Snippet    string  `json:"snippet"`
	Pinned     bool    `json:"pinned,omitempty"`
	Score      float64 `json:"score,omitempty"`
	OccurredAt string  `json:"occurred_at,omitempty"`
	// Context is what search shows under a hit: memories recorded beside
	// it (the turns around a matching turn) that matched nothing
	// themselves.
	Context []contextBrief `json:"context,omitempty" jsonschema:"memories recorded beside the hit, shown for context"`
}

// contextBrief is a memory shown under a search hit.
type contextBrief struct {
	ID         string `json:"id"`
	Snippet    string `json:"snippet"`
	OccurredAt string `json:"occurred_at,omitempty"`
}

func briefMemory(m *recall.Memory, text string) memoryBrief {
	b := memoryBrief{ID: m.ID, Key: m.Key, Title: m.Title, Type: m.Type, Snippet: snippet(text), Pinned: m.Pinned, OccurredAt: stamp(m.OccurredAt)}
	if m.Collection != recall.DefaultCollection {
		b.Collection = m.Collection
	}
	return b
}

// memoryFull is a whole memory for memory_get.
type memoryFull struct {
	ID         string         `json:"id"`
	Key        string         `json:"key,omitempty"`
	Collection string         `json:"collection"`
	Type       string         `json:"type,omitempty"`
	Title      string         `json:"title,omitempty"`
	Content    string         `json:"content"`
	Tags       []string       `json:"tags,omitempty"`
	Category   string         `json:"category,omitempty"`
	Context    string         `json:"context,omitempty" jsonschema:"why it was stored"`
	Related    []string       `json:"related,omitempty"`
	Project    string         `json:"project,omitempty"`
	Priority   string         `json:"priority,omitempty"`
	CreatedBy  string         `json:"created_by,omitempty"`
	Confidence float64        `json:"confidence"`
	Tier       string         `json:"tier"`
	Pinned     bool           `json:"pinned"`
	Status     string         `json:"status"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Version    int            `json:"version"`
	CreatedAt  string         `json:"created_at"`
	UpdatedAt  string         `json:"updated_at"`
	OccurredAt string         `json:"occurred_at"`

	// Set by memory_snooze and memory_review.
	SnoozedUntil string `json:"snoozed_until,omitempty"`
	ReviewedAt   string `json:"reviewed_at,omitempty"`
}

func fullMemory(m *recall.Memory) memoryFull {
	f := memoryFull{ID: m.ID, Key: m.Key, Collection: m.Collection, Type: m.Type, Title: m.Title, Content: m.Content,
		Tags: m.Tags, Category: m.Category, Context: m.Context, Related: m.Related, Project: m.Project, Priority: m.Priority,
		CreatedBy: m.CreatedBy, Confidence: m.Confidence, Tier: m.Tier, Pinned: m.Pinned, Status: m.Status, Version: m.Version,
		CreatedAt: stamp(m.CreatedAt), UpdatedAt: stamp(m.UpdatedAt), OccurredAt: stamp(m.OccurredAt)}
	if m.SnoozedUntil != nil {
		f.SnoozedUntil = stamp(*m.SnoozedUntil)
	}
	if m.ReviewedAt != nil {
		f.ReviewedAt = stamp(*m.ReviewedAt)
	}
	if len(m.Metadata) > 0 {
		// A store only holds JSON objects here; anything else is dropped
		// rather than failing the read.
		_ = json.Unmarshal(m.Metadata, &f.Metadata)
	}
	return f
}

// snippet collapses text to one line of at most snippetRunes runes.
func snippet(text string) string { return recall.OneLine(text, snippetRunes) }

// stamp formats a time for a model: RFC 3339 in UTC, or "" when unset.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
