package rollup

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rank"
)

// Finder is what the searcher and the context section read: full-text
// search over rollup summaries, the current rollup of every key, rollups
// by filter (the unkeyed ones of a window), and one rollup with its
// sources.
type Finder interface {
	SearchRollups(ctx context.Context, f recall.RollupFilter) ([]recall.RollupHit, error)
	CurrentRollups(ctx context.Context, f recall.RollupFilter) ([]*recall.Rollup, error)
	FindRollups(ctx context.Context, f recall.RollupFilter) ([]*recall.Rollup, error)
	FindRollup(ctx context.Context, id string) (*recall.Rollup, error)
}

// Half-lives of the freshness factor per intent: recent questions care
// about hours and days, stable ones about months.
var halfLife = map[string]time.Duration{
	IntentRecent: 3 * 24 * time.Hour,
	IntentAny:    30 * 24 * time.Hour,
	IntentStable: 180 * 24 * time.Hour,
}

// Searcher wraps a memory Searcher and merges rollup hits into its
// results, following seed 004's query strategy: the query's intent picks
// the tiers (recent: 4h and daily; stable: weekly and monthly; otherwise
// all), one rollup per key is kept (the newest, then the most confident),
// a raw memory newer than a key's rollup replaces it, and rollups rank by
// text match × confidence × freshness.
type Searcher struct {
	Base    recall.Searcher // memories; may be nil
	Rollups Finder
	// Now is the clock used when a query has no Now; nil means time.Now.
	Now func() time.Time
	// Time reads the time words of a query ("last week"): rollups are
	// kept to the window by their bucket. Nil: none are read.
	Time recall.TimeParser
	// Observations, when set, lets observations not yet rolled up answer
	// too, so that an event is searchable as soon as it is recorded.
	Observations ObservationFinder
}

var _ recall.Searcher = (*Searcher)(nil)

// Search implements recall.Searcher.
func (s *Searcher) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	apply := s.Rollups != nil && rollupsApply(q)
	if !apply {
		if s.Base == nil {
			return nil, nil
		}
		return s.Base.Search(ctx, q)
	}
	now := q.Now
	if now.IsZero() {
		now = s.now()
	}
	in := recall.TimeIntent{Text: q.Text}
	if s.Time != nil {
		in = s.Time.ParseTime(q.Text, now)
	}
	var base []*recall.SearchHit
	if s.Base != nil {
		// The memories are searched at the rollups' time, and given the
		// time words as read here: a memory searcher that would read the
		// same (rank.Searcher, the same text and parser) takes them rather
		// than reading them again.
		bq := q
		bq.Filter, bq.Now = withCompacted(q.Filter), now
		bctx := ctx
		if s.Time != nil {
			bctx = rank.WithTimeRead(ctx, s.Time, q.Text, now, in)
		}
		var err error
		if base, err = s.Base.Search(bctx, bq); err != nil {
			return nil, err
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	intent := DetectIntent(q.Text)
	f := recall.RollupFilter{
		BucketTypes: TiersFor(intent), MemoryType: q.Filter.Type, Since: later(q.Filter.Since, in.Since), Until: earlier(q.Filter.Until, in.Until),
		Search: in.Text, PerKey: true, Limit: max(3*limit, 30),
	}
	if f.Since != nil && f.Until != nil && !f.Since.Before(*f.Until) {
		return base, nil // an empty window
	}
	if in.HasWindow() && rank.TimeOnly(in) {
		return s.window(ctx, base, f, in, now, limit, q.Explain)
	}
	hits, err := s.Rollups.SearchRollups(ctx, f)
	if err != nil {
		return nil, err
	}
	hits = newestPerKey(hits)
	hits = onePerEntry(hits, in)
	hits = dropOutdated(hits, base)
	base = dropSuperseded(base, hits)
	obs, err := s.observations(ctx, recall.ObservationFilter{Search: in.Text, Since: f.Since, Until: f.Until, Project: q.Filter.Project}, in.Text, now, intent, limit, q.Explain)
	if err != nil {
		return nil, err
	}
	if len(hits) == 0 && len(obs) == 0 {
		return base, nil
	}
	out := make([]*recall.SearchHit, 0, len(base)+len(hits)+len(obs))
	if len(base) > 0 {
		top := base[0].Score
		for _, h := range base {
			top = math.Max(top, h.Score)
		}
		for _, h := range base {
			cp := *h
			cp.Score = normalise(h.Score, top)
			out = append(out, &cp)
		}
	}
	top := 0.0
	for _, h := range hits {
		top = math.Max(top, h.Score)
	}
	for _, h := range hits {
		rel := normalise(h.Score, top)
		conf := 0.5 + 0.5*h.Rollup.Confidence
		fresh := 0.5 + 0.5*Freshness(now.Sub(h.Rollup.LatestAt), halfLife[intent])
		hit := &recall.SearchHit{Memory: MemoryView(h.Rollup), Rollup: h.Rollup, Score: rel * conf * fresh, Snippet: h.Rollup.Summary}
		if q.Explain {
			hit.Explain = &recall.HitExplain{BM25: h.Score, Fused: rel, Adjustments: map[string]float64{"confidence": conf, "freshness": fresh}}
		}
		out = append(out, hit)
	}
	out = append(out, obs...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Memory.OccurredAt.After(out[j].Memory.OccurredAt)
	})
	return s.withSources(ctx, fit(out, limit))
}

// withSources loads the direct sources of the rollups among hits, so that
// a hit names the entries it summarises (Rollup.Sources, and
// Explain.Sources as "kind:id"). Only the hits shown are loaded.
func (s *Searcher) withSources(ctx context.Context, hits []*recall.SearchHit) ([]*recall.SearchHit, error) {
	for i, h := range hits {
		if h.Rollup == nil || len(h.Rollup.Sources) > 0 {
			continue
		}
		full, err := s.Rollups.FindRollup(ctx, h.Rollup.ID)
		if err != nil {
			return nil, fmt.Errorf("rollup sources: %w", err)
		}
		cp := *h
		cp.Rollup = full
		if h.Explain != nil {
			e := *h.Explain
			e.Sources = make([]string, len(full.Sources))
			for j, src := range full.Sources {
				e.Sources[j] = src.Kind + ":" + src.ID
			}
			cp.Explain = &e
		}
		hits[i] = &cp
	}
	return hits, nil
}

// fit keeps the hits that fit in limit places, counting the context shown
// under each (a hit that fits keeps as much of its context as fits).
func fit(hits []*recall.SearchHit, limit int) []*recall.SearchHit {
	used := 0
	for i, h := range hits {
		if used == limit {
			return hits[:i]
		}
		if n := used + 1 + len(h.Context); n > limit {
			cp := *h
			cp.Context = h.Context[:limit-used-1]
			hits[i] = &cp
			return hits[:i+1]
		}
		used += 1 + len(h.Context)
	}
	return hits
}

func (s *Searcher) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// rollupsApply reports whether rollups can answer q: they have no
// collection, tier, project, pin, tags or history of their own, and no
// vectors.
func rollupsApply(q recall.SearchQuery) bool {
	f := q.Filter
	if f.ID != nil || f.Collection != nil || f.Key != nil || f.Tier != nil || f.Pinned != nil || f.Project != nil || len(f.Fields) > 0 {
		return false
	}
	if f.Status != nil && *f.Status != recall.StatusActive && *f.Status != "*" && *f.Status != "any" {
		return false
	}
	return q.AsOf == nil && q.Mode != recall.ModeVector
}

// withCompacted widens a filter of active memories (the default) to the
// compacted ones too: a rollup summarises its raw entries, but an entry
// that matches is the evidence itself and is listed beside the rollup.
// An explicit status filter is kept as it is.
func withCompacted(f recall.MemoryFilter) recall.MemoryFilter {
	if f.Status != nil || len(f.Fields["status"]) > 0 {
		return f
	}
	fields := make(map[string][]string, len(f.Fields)+1)
	for k, v := range f.Fields {
		fields[k] = v
	}
	fields["status"] = []string{recall.StatusActive, recall.StatusCompacted}
	any := "*"
	f.Status, f.Fields = &any, fields
	return f
}

func normalise(score, top float64) float64 {
	if top <= 0 {
		return 0
	}
	return score / top
}

// Freshness is 1 for an entry of now, 0.5 after one half-life, and so on.
func Freshness(age, half time.Duration) float64 {
	if age <= 0 || half <= 0 {
		return 1
	}
	return math.Pow(0.5, float64(age)/float64(half))
}

// newestPerKey keeps one rollup per keyed group: the newest, then the
// most confident; unkeyed rollups all stay. Order is kept.
func newestPerKey(hits []recall.RollupHit) []recall.RollupHit {
	best := map[[2]string]recall.RollupHit{}
	for _, h := range hits {
		if h.Rollup.Key == "" {
			continue
		}
		k := [2]string{h.Rollup.MemoryType, h.Rollup.Key}
		if cur, ok := best[k]; !ok || Newer(h.Rollup, cur.Rollup) {
			best[k] = h
		}
	}
	out := hits[:0:0]
	for _, h := range hits {
		if h.Rollup.Key == "" || best[[2]string{h.Rollup.MemoryType, h.Rollup.Key}].Rollup == h.Rollup {
			out = append(out, h)
		}
	}
	return out
}

// Newer reports whether a should be shown instead of b for the same key:
// its newest entry is newer, or as new and it is more confident.
func Newer(a, b *recall.Rollup) bool {
	if !a.LatestAt.Equal(b.LatestAt) {
		return a.LatestAt.After(b.LatestAt)
	}
	return a.Confidence > b.Confidence
}

// dropOutdated removes rollups of a group for which a base hit is a raw
// memory (unkeyed; grouped by its title) newer than the rollup: the newer
// entry wins, whether it agrees or not.
func dropOutdated(hits []recall.RollupHit, base []*recall.SearchHit) []recall.RollupHit {
	if len(hits) == 0 {
		return hits // nothing to drop: the base's titles need no keys
	}
	newest := map[[2]string]time.Time{}
	for _, h := range base {
		m := h.Memory
		if m == nil || m.Key != "" || h.Rollup != nil {
			continue
		}
		k := [2]string{groupType(m.Type), recall.Slugify(m.Title)}
		if k[1] != "" && m.OccurredAt.After(newest[k]) {
			newest[k] = m.OccurredAt
		}
	}
	out := hits[:0:0]
	for _, h := range hits {
		if t, ok := newest[[2]string{h.Rollup.MemoryType, h.Rollup.Key}]; ok && t.After(h.Rollup.LatestAt) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// dropSuperseded drops the compacted raw entries that a keyed rollup
// among hits has since overtaken: the rollup shows the entry's current
// value and names its sources, so an older value listed beside it would
// read as current. A compacted entry that says what the rollup says, or
// whose rollup is not among the hits, stays: it is the evidence itself.
func dropSuperseded(base []*recall.SearchHit, hits []recall.RollupHit) []*recall.SearchHit {
	current := map[[2]string]*recall.Rollup{}
	for _, h := range hits {
		if h.Rollup.Key != "" {
			current[[2]string{h.Rollup.MemoryType, h.Rollup.Key}] = h.Rollup
		}
	}
	if len(current) == 0 {
		return base
	}
	out := base[:0:0]
	for _, h := range base {
		m := h.Memory
		if m != nil && h.Rollup == nil && m.Status == recall.StatusCompacted {
			r := current[[2]string{groupType(m.Type), recall.Slugify(m.Title)}]
			if r != nil && r.LatestAt.After(m.OccurredAt) && r.Value != Normalize(m.Content) {
				continue
			}
		}
		out = append(out, h)
	}
	return out
}

func groupType(t string) string {
	if t == "" {
		return "note"
	}
	return t
}

// MemoryView presents a rollup as a read-only memory, so that code
// written for memory hits (tables, JSON, context) shows it sensibly:
// collection "rollups", tier "rollup", the summary as content and the
// newest entry's time as occurred_at.
func MemoryView(r *recall.Rollup) *recall.Memory {
	meta, _ := json.Marshal(map[string]any{"bucket_type": r.BucketType, "bucket_start": r.BucketStart, "bucket_end": r.BucketEnd,
		"source_count": r.SourceCount, "entries": r.Entries})
	return &recall.Memory{
		ID: r.ID, Key: r.Key, Collection: "rollups", Type: r.MemoryType,
		Title:   fmt.Sprintf("%s rollup of %s", r.BucketType, r.BucketStart.Format("2006-01-02 15:04")),
		Content: r.Summary, Confidence: r.Confidence, Tier: "rollup", Status: r.Status, Metadata: meta,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, OccurredAt: r.LatestAt,
	}
}
