package engine

import (
	"time"

	"github.com/recall-mem/recall"
)

// HitJSON is a compact search hit: enough to choose, with get for the
// rest. The CLI's search --json prints it.
type HitJSON struct {
	ID         string             `json:"id"`
	Key        string             `json:"key,omitempty"`
	Collection string             `json:"collection"`
	Type       string             `json:"type,omitempty"`
	Title      string             `json:"title,omitempty"`
	Tier       string             `json:"tier"`
	Score      float64            `json:"score"`
	Snippet    string             `json:"snippet,omitempty"`
	OccurredAt time.Time          `json:"occurred_at"`
	Explain    *recall.HitExplain `json:"explain,omitempty"`
	// Context is the memories shown under the hit (the turns around it),
	// which matched nothing themselves.
	Context []HitJSON `json:"context,omitempty"`
	// Sources, for a rollup, are the entries it summarises ("kind:id").
	Sources []string `json:"sources,omitempty"`
}

// ToHitJSON makes the compact form of a hit and of the context under it.
func ToHitJSON(h *recall.SearchHit) HitJSON {
	m := h.Memory
	out := HitJSON{ID: m.ID, Key: m.Key, Collection: m.Collection, Type: m.Type, Title: m.Title,
		Tier: m.Tier, Score: h.Score, Snippet: h.Snippet, OccurredAt: m.OccurredAt, Explain: h.Explain}
	for _, c := range h.Context {
		out.Context = append(out.Context, ToHitJSON(c))
	}
	if h.Rollup != nil {
		for _, src := range h.Rollup.Sources {
			out.Sources = append(out.Sources, src.Kind+":"+src.ID)
		}
	}
	return out
}
