package rank

import (
	"sort"
	"time"
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

// duplicateSimilarity is the word overlap (Jaccard) from which two
// memories count as near-duplicates for MMR.
const duplicateSimilarity = 0.5

// diversify picks limit candidates by maximal marginal relevance among the
// best few times limit, so that near-duplicates do not fill the top.
func diversify(list []*candidate, lambda float64, limit int) []*candidate {
	if lambda >= 1 || len(list) <= 1 {
		return list[:min(limit, len(list))]
	}
	pool := list[:min(len(list), 3*limit)]
	scores := make([]float64, len(pool))
	terms := make([]wordList, len(pool))
	nums := newWordNumbers(8 * len(pool))
	for i, c := range pool {
		scores[i] = c.score
		terms[i] = nums.of(c.m.Title + " " + c.m.Content)
	}
	picked := MMR(scores, func(i, j int) float64 {
		// Only near-duplicates count: distinct memories on one topic are
		// what a search is for.
		if sim := terms[i].jaccard(terms[j]); sim >= duplicateSimilarity {
			return sim
		}
		return 0
	}, lambda, limit)
	// The score shown is the one that ordered: a near-duplicate of a hit
	// above loses what MMR took from it, in score units, so that scores
	// still fall down the list.
	top := max(pool[0].score, 0)
	out := make([]*candidate, len(picked))
	for i, p := range picked {
		c := pool[p]
		dup := 0.0
		for _, q := range picked[:i] {
			if sim := terms[p].jaccard(terms[q]); sim >= duplicateSimilarity {
				dup = max(dup, sim)
			}
		}
		if dup > 0 && lambda > 0 {
			penalty := (1 - lambda) / lambda * top * dup
			c.score -= penalty
			c.note("-duplicate", penalty)
		}
		out[i] = c
	}
	return out
}

// cut drops the hits scoring under share × the best one: faint matches
// that only fill the list.
func cut(list []*candidate, share float64) []*candidate {
	if share <= 0 || len(list) == 0 {
		return list
	}
	for i, c := range list {
		if c.score < share*list[0].score {
			return list[:i]
		}
	}
	return list
}

// episodeBoost lets each candidate borrow weight × the best fused score of
// another candidate of its thread that occurred within window of it (before its own
// neighbour or episode boosts).
func episodeBoost(cands map[string]*candidate, weight float64, window time.Duration) {
	list := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].m.OccurredAt.Before(list[j].m.OccurredAt) })
	boost := make([]float64, len(list))
	for i, c := range list {
		for j := i - 1; j >= 0 && c.m.OccurredAt.Sub(list[j].m.OccurredAt) <= window; j-- {
			if sameThread(c.m, list[j].m) {
				boost[i] = max(boost[i], list[j].base)
			}
		}
		for j := i + 1; j < len(list) && list[j].m.OccurredAt.Sub(c.m.OccurredAt) <= window; j++ {
			if sameThread(c.m, list[j].m) {
				boost[i] = max(boost[i], list[j].base)
			}
		}
	}
	for i, c := range list {
		c.fused += weight * boost[i]
		c.episode = weight * boost[i]
	}
}
