package rank

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/recall-mem/recall"
)

// A query that only names a time ("last week", "what happened yesterday")
// asks for what is in the window, newest first: membership is its evidence.

// timeFillers are words that, beside a time expression, ask for nothing
// more than what happened then.
var timeFillers = map[string]bool{"happened": true, "happen": true, "happening": true, "memories": true, "memory": true,
	"anything": true, "everything": true, "show": true, "list": true, "tell": true}

// TimeOnly reports whether a query asks for nothing beyond the window its
// time expressions name ("last week", "what happened yesterday").
func TimeOnly(in recall.TimeIntent) bool {
	text := in.Rest(in.Text)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !stopwords[w] && !timeFillers[w] {
			return false
		}
	}
	return true
}

// windowScan bounds the memories read for a time-only query. A store
// that orders by occurred_at (MemoryFilter.Newest) returns the newest
// first, so the first limit are the answer; one that cannot (an older
// server) returns some of the window, which is then sorted here.
const windowScan = 1000

// listWindow returns the memories of the query's window under f, newest
// first, scored by recency so that the printed score falls down the list.
func (s *Searcher) listWindow(ctx context.Context, f recall.MemoryFilter, in recall.TimeIntent, now time.Time, w Weights, limit int, explain bool, note string) ([]*recall.SearchHit, error) {
	wf, ok := narrow(f, in)
	if !ok {
		return nil, nil
	}
	wf.Offset, wf.Limit, wf.Newest = 0, windowScan, true
	ms, _, err := s.Memories.FindMemories(ctx, wf)
	if err != nil {
		return nil, fmt.Errorf("list the window: %w", err)
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if !ms[i].OccurredAt.Equal(ms[j].OccurredAt) {
			return ms[i].OccurredAt.After(ms[j].OccurredAt)
		}
		return ms[i].ID < ms[j].ID
	})
	ms = ms[:min(len(ms), limit)]
	half := w.HalfLife
	if half <= 0 {
		half = 30 * 24 * time.Hour
	}
	out := make([]*recall.SearchHit, len(ms))
	for i, m := range ms {
		score := Decay(now.Sub(m.OccurredAt), half)
		out[i] = &recall.SearchHit{Memory: m, Score: score, Snippet: bestPassage(m.Content, nil, "")}
		if explain {
			out[i].Explain = &recall.HitExplain{Fused: score, Adjustments: map[string]float64{"time_window": 1}, Note: note}
		}
	}
	return out, nil
}
