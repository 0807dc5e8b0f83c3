package rank

import (
	"sort"
	"strings"
)

// A hit needs evidence of its own: a full-text match, or a vector
// similarity at or above the embedder's floor. Context (neighbours, the
// episode) may reorder hits and may be shown beside them, but a memory that
// only borrows from others is never a hit: in a real store the memories
// recorded around a match are as often unrelated as they are its reply.

// vectorFloors are the cosine similarities from which a vector match alone
// counts as evidence, per embedder model (matched by prefix, so that
// "builtin-hash-v1-128" uses the built-in entry). Each is calibrated on
// data; docs/retrieval.md gives the figures.
//
// builtin-hash-v1: on LoCoMo dev (categories 1–4) a question and one of its
// evidence turns have a median similarity of 0.18, a question and a random
// turn 0.09; at 0.15, 60 % of evidence pairs and 22 % of random pairs pass
// (at 0.2: 44 % and 8 %, and R@5 0.006 lower).
// The hashing embedder is lexical, so a memory sharing a word with the
// query is a full-text match anyway; the floor only admits memories that
// share much spelling (inflections, compounds) without a common word.
//
// use-lite (the built-in sentence encoder): on the same pairs the median
// is 0.39 for evidence and 0.21 for a random turn of the same
// conversation; at 0.35, 62 % of evidence pairs and 10 % of random pairs
// pass (at 0.30: 76 % and 20 %; at 0.40: 48 % and 5 %). LoCoMo R@5 / R@10
// at 0.30, 0.35, 0.40: 0.661 / 0.776, 0.654 / 0.775, 0.652 / 0.772. 0.35
// keeps paraphrases such as "how do we ship a release" → "Deploys go
// through staging first, then a canary" (0.36) and refuses "weather in
// Paris" or "zebra" over unrelated facts. Near neighbours of a topic do
// pass ("Alpha apples are red" for "cherries", 0.48); a margin under the
// best similarity (0.1) would refuse them but cost 0.005 R@5 on LoCoMo and
// one paraphrase in 32, so there is none. A margin under the cosine of the
// lexical hits only (applied when there are some) fared no better: 0.05
// to 0.15 under the best lexical hit's cosine, or the BM25 first's, each
// cost 0.0055 R@5 or more (docs/retrieval.md). A keyword lookup refuses
// them instead, in every mode (lookup.go).
//
// A new embedder gets its own line here once calibrated the same way; until
// then DefaultVectorFloor applies.
var vectorFloors = map[string]float64{
	"builtin-hash-v1": 0.15,
	"use-lite":        0.35,
}

// DefaultVectorFloor is the floor for an embedder not calibrated here: a
// cautious value for normalised sentence embeddings, where unrelated texts
// commonly score 0.1–0.3. Override it with [ranking] vector_floor.
const DefaultVectorFloor = 0.35

// VectorFloor returns the evidence floor for vectors of the named model.
func VectorFloor(model string) float64 {
	best, floor := "", DefaultVectorFloor
	for prefix, v := range vectorFloors {
		if strings.HasPrefix(model, prefix) && len(prefix) > len(best) {
			best, floor = prefix, v
		}
	}
	return floor
}

// hasEvidence reports whether c matched the query by itself.
func hasEvidence(c *candidate, floor float64) bool {
	return c.bm25Rank > 0 || (c.vectorRank > 0 && c.vector >= floor)
}

// follows reports whether c may be shown as context: it borrowed from a
// hit recorded before it (the reply to a matching turn, the next step of a
// matching step). What precedes a match may still lend it weight, but is
// shown only with evidence of its own: on LoCoMo dev (categories 1–4, the
// built-in encoder, context share 0.7) showing the turns before a hit too
// gave R@5 / R@10 0.678 / 0.782, showing only those after it 0.684 /
// 0.782, only the one turn on either side 0.685 / 0.777.
func follows(c *candidate) bool { return c.via != "" && c.offset > 0 }

// asContext scales the scores of context memories by share: they compete
// for places with the hits, and a memory with no evidence of its own
// should take a place from one that has only when it borrowed clearly
// more. On LoCoMo dev (categories 1–4, the built-in encoder), R@5 / R@10
// at shares 1, 0.8, 0.7, 0.6, 0.5: 0.654 / 0.774, 0.669 / 0.784,
// 0.678 / 0.781, 0.683 / 0.777, 0.683 / 0.772. The context memories in
// the top 5 at share 1 were evidence 2 % of the time, the hits 19 %.
func asContext(list []*candidate, share float64) []*candidate {
	if share == 1 {
		return list
	}
	for _, c := range list {
		c.score *= share
		c.note("context", share)
	}
	return list
}

// shown is a hit with the context memories shown under it.
type shown struct {
	hit     *candidate
	context []*candidate
}

// attach lays out at most limit memories: hits in their order, and each
// context memory under the hit it borrowed from, taking a place when its
// score would have ranked it there. Context memories whose hit is not
// shown (yet) are left out. Under a hit, its context is in the order the
// memories were recorded.
func attach(hits, context []*candidate, limit int) []shown {
	var out []shown
	at := map[string]int{} // hit id → index in out
	i, j, used := 0, 0, 0
	for used < limit && (i < len(hits) || j < len(context)) {
		if j < len(context) && (i == len(hits) || context[j].score > hits[i].score) {
			c := context[j]
			j++
			if k, ok := at[c.via]; ok {
				out[k].context = append(out[k].context, c)
				used++
			}
			continue
		}
		at[hits[i].m.ID] = len(out)
		out = append(out, shown{hit: hits[i]})
		i++
		used++
	}
	for _, s := range out {
		sort.SliceStable(s.context, func(a, b int) bool { return s.context[a].offset < s.context[b].offset })
	}
	return out
}
