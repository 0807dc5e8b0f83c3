package retrieve

import (
	"sort"
	"time"

	"github.com/recall-mem/recall/rank"
)

// order sorts candidates best first, ties broken by id.
func order(list []*candidate) []*candidate {
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].m.ID < list[j].m.ID
	})
	return list
}

// diversify picks limit candidates by maximal marginal relevance among the
// best few times limit, so that near-duplicates do not fill the top.
func diversify(list []*candidate, lambda float64, limit int) []*candidate {
	if lambda >= 1 || len(list) <= 1 {
		return list[:min(limit, len(list))]
	}
	pool := list[:min(len(list), 3*limit)]
	scores := make([]float64, len(pool))
	terms := make([]rank.TermSet, len(pool))
	for i, c := range pool {
		scores[i] = c.score
		terms[i] = rank.Terms(c.m.Title + " " + c.m.Content)
	}
	picked := rank.MMR(scores, func(i, j int) float64 { return rank.Jaccard(terms[i], terms[j]) }, lambda, limit)
	out := make([]*candidate, len(picked))
	for i, p := range picked {
		out[i] = pool[p]
	}
	return out
}

// episodeBoost lets each candidate borrow weight × the best fused score of
// another candidate that occurred within window of it.
func episodeBoost(cands map[string]*candidate, weight float64, window time.Duration) {
	list := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].m.OccurredAt.Before(list[j].m.OccurredAt) })
	boost := make([]float64, len(list))
	for i, c := range list {
		for j := i - 1; j >= 0 && c.m.OccurredAt.Sub(list[j].m.OccurredAt) <= window; j-- {
			boost[i] = max(boost[i], list[j].fused)
		}
		for j := i + 1; j < len(list) && list[j].m.OccurredAt.Sub(c.m.OccurredAt) <= window; j++ {
			boost[i] = max(boost[i], list[j].fused)
		}
	}
	for i, c := range list {
		c.fused += weight * boost[i]
	}
}
