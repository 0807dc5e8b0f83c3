// Package rank ranks memories for a query. The ranking math is pure
// functions (fusing ranked lists, adjusting for recency, tier, pins and
// confidence, diversifying with maximal marginal relevance); Searcher
// applies it to candidates from the store's full-text and vector indexes,
// which it reaches only through root interfaces.
package rank

import (
	"math"
	"sort"
)

// List is one ranked candidate list, best first, with its fusion weight.
type List struct {
	IDs    []string
	Weight float64 // 0 means 1
}

// DefaultRRFK is the usual reciprocal-rank-fusion constant: large enough
// that the first few ranks of one list do not drown the other lists.
const DefaultRRFK = 60

// RRF fuses ranked lists by reciprocal rank: an item scores the sum over
// lists of weight / (k + rank), ranks counted from 1. Items missing from a
// list get nothing from it.
func RRF(k float64, lists ...List) map[string]float64 {
	if k <= 0 {
		k = DefaultRRFK
	}
	out := map[string]float64{}
	for _, l := range lists {
		w := l.Weight
		if w == 0 {
			w = 1
		}
		for i, id := range l.IDs {
			out[id] += w / (k + float64(i+1))
		}
	}
	return out
}

// Normalize scales scores into [0, 1] by dividing by the largest, keeping
// ratios (a weak best match stays weak relative to others of its list only).
func Normalize(scores map[string]float64) map[string]float64 {
	top := 0.0
	for _, s := range scores {
		top = math.Max(top, s)
	}
	out := make(map[string]float64, len(scores))
	for id, s := range scores {
		if top > 0 {
			out[id] = s / top
		}
	}
	return out
}

// NormalizeMinMax scales scores into [0, 1] so that the lowest is 0 and
// the highest 1: it spreads a list whose scores sit in a narrow band (the
// cosines of a sentence encoder), where dividing by the largest would
// give every candidate nearly the same share. Equal scores all become 1.
func NormalizeMinMax(scores map[string]float64) map[string]float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range scores {
		lo, hi = math.Min(lo, s), math.Max(hi, s)
	}
	out := make(map[string]float64, len(scores))
	for id, s := range scores {
		if hi > lo {
			out[id] = (s - lo) / (hi - lo)
		} else if hi > 0 {
			out[id] = 1
		}
	}
	return out
}

// Scored is an id with a score.
type Scored struct {
	ID    string
	Score float64
}

// Sorted returns scores ordered best first, ties broken by id so that
// results are deterministic.
func Sorted(scores map[string]float64) []Scored {
	out := make([]Scored, 0, len(scores))
	for id, s := range scores {
		out = append(out, Scored{id, s})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	return out
}
