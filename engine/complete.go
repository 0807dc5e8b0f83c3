package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/recall-mem/recall"
)

// What Complete completes.
const (
	CompleteKeys        = "key"
	CompleteCollections = "collection"
	CompleteTags        = "tag"
	CompleteSessions    = "session"
)

// completeScan bounds how many memories and sessions a completion reads:
// the most recently changed, which are the ones people type.
const completeScan = 2000

// Complete lists the values of kind (CompleteKeys, …) that start with
// prefix, sorted and without repeats, for shell completion. It reads the
// open store only and never writes.
func (e *Engine) Complete(ctx context.Context, kind, prefix string) ([]string, error) {
	seen := map[string]bool{}
	add := func(v string) {
		if v != "" && strings.HasPrefix(v, prefix) {
			seen[v] = true
		}
	}
	switch kind {
	case CompleteSessions:
		ss, err := e.ListSessions(ctx, completeScan)
		if err != nil {
			return nil, err
		}
		for _, s := range ss {
			add(s.ID)
		}
	case CompleteKeys, CompleteCollections, CompleteTags:
		ms, _, err := e.List(ctx, recall.MemoryFilter{Limit: completeScan})
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			switch kind {
			case CompleteKeys:
				add(m.Key)
			case CompleteCollections:
				add(m.Collection)
			default:
				for _, t := range m.Tags {
					add(t)
				}
			}
		}
	default:
		return nil, recall.Errorf(recall.EINVALID, "Nothing to complete for %q.", kind)
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	slices.Sort(out)
	return out, nil
}
