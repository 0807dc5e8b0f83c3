package rollup

import (
	"context"
	"sort"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/prose"
)

// SectionName names the rollups section of a context pack.
const SectionName = "rollups"

// preferredTypes are injected first among equally new and sure rollups
// (seed 004: preference, constraint, style).
var preferredTypes = map[string]bool{"preference": true, "constraint": true, "style": true}

// Section offers rollups to a context pack in place of the raw entries
// they cover: one item per key, the current value with its confidence.
// The pack owns the budget and its tokenizer; Tokens here is an estimate
// (prose.Tokens) the pack may recount.
type Section struct {
	Rollups  Finder
	MaxItems int // 0 means 20
}

// Build returns the section for req. With a query, the rollups that match
// it, tiers chosen by its intent, best first; without one, the current
// rollup of every key, ordered as the seed asks: newest bucket first (by
// day), then highest confidence, then preference/constraint/style.
func (s *Section) Build(ctx context.Context, req recall.ContextRequest) (recall.ContextSection, error) {
	sec := recall.ContextSection{Name: SectionName}
	limit := s.MaxItems
	if limit <= 0 {
		limit = 20
	}
	f := recall.RollupFilter{BucketTypes: TiersFor(DetectIntent(req.Query)), MemoryType: req.Filter.Type}
	var rs []*recall.Rollup
	if req.Query != "" {
		f.Search, f.PerKey, f.Limit = req.Query, true, 3*limit
		hits, err := s.Rollups.SearchRollups(ctx, f)
		if err != nil {
			return sec, err
		}
		for _, h := range newestPerKey(hits) {
			rs = append(rs, h.Rollup)
		}
	} else {
		var err error
		if rs, err = s.Rollups.CurrentRollups(ctx, f); err != nil {
			return sec, err
		}
		SortForContext(rs)
	}
	if len(rs) > limit {
		rs = rs[:limit]
	}
	for _, r := range rs {
		it := Item(r)
		sec.Items = append(sec.Items, it)
		sec.Tokens += it.Tokens
	}
	return sec, nil
}

// SortForContext orders rollups for injection: newest day first, then the
// most confident, then the preferred memory types, then by type and key.
func SortForContext(rs []*recall.Rollup) {
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		da, db := a.LatestAt.Truncate(24*time.Hour), b.LatestAt.Truncate(24*time.Hour)
		switch {
		case !da.Equal(db):
			return da.After(db)
		case a.Confidence != b.Confidence:
			return a.Confidence > b.Confidence
		case preferredTypes[a.MemoryType] != preferredTypes[b.MemoryType]:
			return preferredTypes[a.MemoryType]
		case a.MemoryType != b.MemoryType:
			return a.MemoryType < b.MemoryType
		}
		return a.Key < b.Key
	})
}

// Item is the context item of a rollup.
func Item(r *recall.Rollup) recall.ContextItem {
	return recall.ContextItem{ID: r.ID, Kind: "rollup", Title: r.Key, Text: r.Summary, Tokens: prose.Tokens(r.Summary)}
}

// Coverer finds the rollups built from raw entries.
type Coverer interface {
	RollupsCovering(ctx context.Context, kind string, ids []string) (map[string]string, error)
}

// Replace returns items without the memories and observations that a
// rollup covers, and the ids of those rollups (each once, in order), for
// a pack that assembled raw items before it knew of rollups.
func Replace(ctx context.Context, c Coverer, items []recall.ContextItem) ([]recall.ContextItem, []string, error) {
	ids := map[string][]string{}
	for _, it := range items {
		if it.Kind == recall.SourceMemory || it.Kind == recall.SourceObservation {
			ids[it.Kind] = append(ids[it.Kind], it.ID)
		}
	}
	covered := map[string]map[string]string{}
	for kind, list := range ids {
		m, err := c.RollupsCovering(ctx, kind, list)
		if err != nil {
			return nil, nil, err
		}
		covered[kind] = m
	}
	var kept []recall.ContextItem
	var rollups []string
	seen := map[string]bool{}
	for _, it := range items {
		if r, ok := covered[it.Kind][it.ID]; ok {
			if !seen[r] {
				seen[r] = true
				rollups = append(rollups, r)
			}
			continue
		}
		kept = append(kept, it)
	}
	return kept, rollups, nil
}
