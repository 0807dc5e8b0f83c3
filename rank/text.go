package rank

import (
	"context"
	"sort"
	"time"

	"github.com/recall-mem/recall"
)

// textCandidates adds the full-text matches to cands and returns their ids
// by BM25 score. When the query names a time window, the matches inside
// it are fetched too, so that a window is honoured even when the best
// matches overall lie outside it.
func (s *Searcher) textCandidates(ctx context.Context, text string, f recall.MemoryFilter, in recall.TimeIntent, k int, cands map[string]*candidate) ([]string, error) {
	add := func(f recall.MemoryFilter) error {
		hits, err := s.Text.Search(ctx, recall.SearchQuery{Text: text, Filter: f, Limit: k})
		if err != nil {
			return err
		}
		for _, h := range hits {
			if cands[h.Memory.ID] == nil {
				cands[h.Memory.ID] = &candidate{m: h.Memory, bm25: h.Score, snippet: h.Snippet}
			}
		}
		return nil
	}
	if err := add(f); err != nil {
		return nil, err
	}
	if in.HasWindow() {
		wf, ok := narrow(f, in)
		if ok {
			if err := add(wf); err != nil {
				return nil, err
			}
		}
	}
	ids := make([]string, 0, len(cands))
	for id := range cands {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := cands[ids[i]], cands[ids[j]]
		if a.bm25 != b.bm25 {
			return a.bm25 > b.bm25
		}
		return ids[i] < ids[j]
	})
	for i, id := range ids {
		cands[id].bm25Rank = i + 1
	}
	return ids, nil
}

// narrow intersects the filter's occurred_at range with the intent's
// window; ok is false when nothing would remain.
func narrow(f recall.MemoryFilter, in recall.TimeIntent) (recall.MemoryFilter, bool) {
	if in.Since != nil && (f.Since == nil || in.Since.After(*f.Since)) {
		f.Since = in.Since
	}
	if in.Until != nil && (f.Until == nil || in.Until.Before(*f.Until)) {
		f.Until = in.Until
	}
	return f, f.Since == nil || f.Until == nil || f.Since.Before(*f.Until)
}

func inWindow(t time.Time, in recall.TimeIntent) bool {
	return (in.Since == nil || !t.Before(*in.Since)) && (in.Until == nil || t.Before(*in.Until))
}

// keepWindow returns the hits inside the query's window, or all of them
// when none is: a window the memories do not reach (a question about
// events "two years ago" recorded since) must not empty the answer.
func keepWindow(hits []*candidate, in recall.TimeIntent) []*candidate {
	var out []*candidate
	for _, c := range hits {
		if inWindow(c.m.OccurredAt, in) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return hits
	}
	return out
}

// describe says which time window a query named, for --explain.
func describe(in recall.TimeIntent) string {
	s := ""
	for i, f := range in.Found {
		if i > 0 {
			s += ", "
		}
		s += "\"" + f + "\""
	}
	const day = "2006-01-02"
	switch {
	case in.Since != nil && in.Until != nil:
		s += " → " + in.Since.Format(day) + " to " + in.Until.Add(-time.Nanosecond).Format(day)
	case in.Since != nil:
		s += " → since " + in.Since.Format(day)
	case in.Until != nil:
		s += " → before " + in.Until.Format(day)
	}
	if in.Recent {
		s += " (recent first)"
	}
	return s
}
