package rollup

import (
	"crypto/sha1"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// maxValues caps a rollup's tally so that a monthly rollup of a noisy
// stream stays small; Entries still counts everything.
const maxValues = 8

// group accumulates the entries of one memory type and key in a bucket.
type group struct {
	typ, key string
	values   map[string]*recall.RollupValue // by normalised text
	entries  int
	latest   time.Time
	sources  []recall.RollupSource
	existing *recall.Rollup
}

func (g *group) add(v recall.RollupValue) {
	// An unkeyed group's summary quotes only short values; keep no more.
	if g.key == "" {
		v.Text = clip(v.Text, otherRunes)
	} else {
		v.Text = clip(v.Text, leadRunes)
	}
	norm := Normalize(v.Text)
	if norm == "" {
		return
	}
	cur := g.values[norm]
	if cur == nil {
		cp := v
		g.values[norm] = &cp
	} else {
		n := cur.Count + v.Count
		cur.Confidence = (cur.Confidence*float64(cur.Count) + v.Confidence*float64(v.Count)) / float64(n)
		cur.Count = n
		// The wording of the newest occurrence is the one shown.
		if v.Last.After(cur.Last) {
			cur.Last, cur.Text = v.Last, v.Text
		}
	}
	if v.Last.After(g.latest) {
		g.latest = v.Last
	}
}

// Summarize implements recall.RollupPolicy. Sources are merged into the
// existing rollups of their group: entries that arrive late join their
// bucket's summary. (A coarser tier whose finer rollups are all still
// there is rebuilt from them; the store then passes no existing rollups.)
func (p *Policy) Summarize(b recall.RollupBucket, existing []*recall.Rollup, sources []recall.RollupSource) []*recall.Rollup {
	groups := map[[2]string]*group{}
	get := func(typ, key string) *group {
		if typ == "" {
			typ = "note"
		}
		k := [2]string{typ, key}
		g := groups[k]
		if g == nil {
			g = &group{typ: typ, key: key, values: map[string]*recall.RollupValue{}}
			groups[k] = g
		}
		return g
	}
	for _, s := range sources {
		if s.Kind == recall.SourceRollup && s.Rollup != nil {
			r := s.Rollup
			g := get(r.MemoryType, r.Key)
			for _, v := range r.Values {
				g.add(v)
			}
			g.entries += r.Entries
			if r.LatestAt.After(g.latest) {
				g.latest = r.LatestAt
			}
		} else {
			g := get(s.Type, s.Key)
			g.add(recall.RollupValue{Text: s.Text, Count: 1, Last: s.At, Confidence: s.Confidence})
			g.entries++
		}
		g := get(sourceGroup(s))
		g.sources = append(g.sources, s)
	}
	for _, r := range existing {
		g, ok := groups[[2]string{r.MemoryType, r.Key}]
		if !ok {
			continue // untouched groups keep their rollup as it is
		}
		g.existing = r
		for _, v := range r.Values {
			g.add(v)
		}
		g.entries += r.Entries
		if r.LatestAt.After(g.latest) {
			g.latest = r.LatestAt
		}
	}
	keys := make([][2]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	out := make([]*recall.Rollup, 0, len(keys))
	for _, k := range keys {
		if r := groups[k].rollup(b); r != nil {
			out = append(out, r)
		}
	}
	return out
}

func sourceGroup(s recall.RollupSource) (string, string) {
	if s.Kind == recall.SourceRollup && s.Rollup != nil {
		return s.Rollup.MemoryType, s.Rollup.Key
	}
	return s.Type, s.Key
}

func tallyCount(vs []recall.RollupValue) int {
	n := 0
	for _, v := range vs {
		n += v.Count
	}
	return n
}

// rollup turns a finished group into its rollup, or nil when no entry
// had any text.
func (g *group) rollup(b recall.RollupBucket) *recall.Rollup {
	if len(g.values) == 0 {
		return nil
	}
	vals := make([]recall.RollupValue, 0, len(g.values))
	for _, v := range g.values {
		vals = append(vals, *v)
	}
	keyed := g.key != ""
	sort.Slice(vals, func(i, j int) bool { return valueLess(vals[i], vals[j], keyed) })
	if len(vals) > maxValues {
		vals = vals[:maxValues]
	}
	lead := vals[0]
	r := &recall.Rollup{
		ID:          RollupID(b.Type, b.Start, g.typ, g.key),
		BucketType:  b.Type,
		BucketStart: b.Start,
		BucketEnd:   b.End,
		MemoryType:  g.typ,
		Key:         g.key,
		Values:      vals,
		Entries:     max(g.entries, tallyCount(vals)),
		LatestAt:    g.latest,
		Status:      recall.RollupActive,
		Sources:     g.sources,
		SourceCount: len(g.sources),
	}
	if g.existing != nil {
		r.SourceCount += g.existing.SourceCount
	}
	r.Confidence = Confidence(lead.Confidence, lead.Count, r.Entries)
	if keyed {
		r.Value = Normalize(lead.Text)
	}
	r.Summary = summaryText(g.typ, g.key, vals, len(g.values))
	return r
}

// valueLess orders a tally: for a keyed group the latest value first (it
// wins), for an unkeyed one the most frequent.
func valueLess(a, b recall.RollupValue, keyed bool) bool {
	if keyed && !a.Last.Equal(b.Last) {
		return a.Last.After(b.Last)
	}
	if a.Count != b.Count {
		return a.Count > b.Count
	}
	if !a.Last.Equal(b.Last) {
		return a.Last.After(b.Last)
	}
	return a.Text < b.Text
}

// Confidence is how sure a rollup is of its leading value: the mean
// confidence of the entries that said it, times a repetition factor that
// rises with each agreeing entry (1 − 0.5^agree: 0.5, 0.75, 0.875…),
// times an agreement factor that falls with conflicting entries
// (0.5 + 0.5 · agree/total). A value said once scores 0.5 × base; the
// same formula at every tier gives a daily rollup the confidence it would
// have had from the raw entries directly.
func Confidence(base float64, agree, total int) float64 {
	if agree <= 0 || total <= 0 {
		return 0
	}
	if base <= 0 || base > 1 {
		base = 1
	}
	c := base * (1 - math.Pow(0.5, float64(agree))) * (0.5 + 0.5*float64(agree)/float64(total))
	return math.Round(c*1000) / 1000
}

// Normalize is the form in which values are compared: lower case, runs of
// white space as one space, trailing punctuation dropped.
func Normalize(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimRight(s, ".!;,: ")
}

// RollupID is the rollup's id: a name-based (version 5) UUID of its bucket
// and group, so reruns and resumed runs address the same row.
func RollupID(bucketType string, start time.Time, memoryType, key string) string {
	ns := []byte("recall.rollup.v1")
	h := sha1.Sum(append(ns, fmt.Sprintf("\x00%s\x00%d\x00%s\x00%s", bucketType, start.UnixMilli(), memoryType, key)...))
	u := h[:16]
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}
