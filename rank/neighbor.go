package rank

import (
	"context"
	"fmt"
	"sort"

	"github.com/recall-mem/recall"
)

// sameThread reports whether two memories recorded close together belong
// to one thread (the turns of a conversation, the steps of a procedure):
// they share a type, and have one that is not a standalone kind. Untyped
// notes, or facts and decisions put one after another, are usually
// unrelated, so they lend each other nothing and are never shown as each
// other's context.
func sameThread(a, b *recall.Memory) bool {
	return threaded(a) && a.Type == b.Type && a.Collection == b.Collection
}

// threaded reports whether m has a type whose memories form threads.
func threaded(m *recall.Memory) bool { return m.Type != "" && !standalone[m.Type] }

// standalone are the memory types that each hold one piece of knowledge
// on its own (README: the types of `recall put`).
var standalone = map[string]bool{"fact": true, "preference": true, "decision": true, "constraint": true, "note": true, "open_loop": true}

// neighborBoost lets the memories recorded beside the best candidates
// borrow from them: weight × score / distance, the largest such share. A
// neighbour that matched nothing itself joins the candidates this way.
func (s *Searcher) neighborBoost(ctx context.Context, o Options, f recall.MemoryFilter, cands map[string]*candidate) error {
	top := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		top = append(top, c)
	}
	sort.Slice(top, func(i, j int) bool {
		if top[i].base != top[j].base {
			return top[i].base > top[j].base
		}
		return top[i].m.ID < top[j].m.ID
	})
	top = top[:min(len(top), o.NeighborTop)]
	// Only a memory of a thread's type can lend to its neighbours
	// (sameThread): the others' neighbours are not asked for. A store of
	// untyped notes or facts then makes no neighbour query at all.
	ids := make([]string, 0, len(top))
	for _, c := range top {
		if threaded(c.m) {
			ids = append(ids, c.m.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	near, err := s.Neighbors.MemoryNeighbors(ctx, ids, o.NeighborRadius, o.EpisodeWindow, f)
	if err != nil {
		return fmt.Errorf("neighbours: %w", err)
	}
	share := map[string]float64{}
	for _, c := range top {
		for _, n := range near[c.m.ID] {
			if !sameThread(c.m, n.Memory) {
				continue
			}
			d := float64(n.Offset)
			if d < 0 {
				d = -d * o.NeighborBefore
			}
			id := n.Memory.ID
			if cands[id] == nil {
				cands[id] = &candidate{m: n.Memory}
			}
			if v := o.Neighbor * c.base / d; v > share[id] {
				share[id] = v
				// Without evidence of its own, the memory can only be
				// shown beside the candidate it borrows most from.
				cands[id].via, cands[id].offset = c.m.ID, n.Offset
			}
		}
	}
	for id, v := range share {
		cands[id].fused += v
		cands[id].neighbor = v
	}
	return nil
}
