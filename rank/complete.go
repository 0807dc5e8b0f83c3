package rank

import (
	"context"
	"fmt"

	"github.com/recall-mem/recall"
)

// candidateLoader is a memory service that loads search candidates with
// only the fields the ranker reads of a candidate: ID, Collection, Type,
// Title, Content, Tags, Category, Project, CreatedBy, Confidence, Tier,
// Pinned, Status, Metadata and OccurredAt (the adjustments, threads,
// entities, lookups, MMR and time windows; keep this list in step with
// what ranking reads of c.m). A hybrid search loads some 100 vector
// candidates and shows ten: those ten are then loaded whole (complete).
// sqlite.MemoryService is one; a service that is not loads them whole.
// rows holds beside each id of f.IDs the row the vector search found the
// memory at (recall.VectorHit.Row, 0 when unknown), a hint the loader
// reads by and checks: it gives only memories of the ids asked.
type candidateLoader interface {
	FindCandidates(ctx context.Context, f recall.MemoryFilter, rows []int64) ([]*recall.Memory, error)
}

// complete loads whole, under the search's filter, the memories of the
// shown hits and their context that were loaded lean, in one query, and
// returns those no longer found (deleted or changed since the candidates
// were loaded so that the filter drops them): they are not shown.
func (s *Searcher) complete(ctx context.Context, f recall.MemoryFilter, laid []shown) (map[*candidate]bool, error) {
	var lean []*candidate
	for _, sh := range laid {
		if sh.hit.lean {
			lean = append(lean, sh.hit)
		}
		for _, c := range sh.context {
			if c.lean {
				lean = append(lean, c)
			}
		}
	}
	if len(lean) == 0 {
		return nil, nil
	}
	ids := make([]string, len(lean))
	for i, c := range lean {
		ids[i] = c.m.ID
	}
	f.IDs, f.Offset, f.Limit = ids, 0, len(ids)
	ms, _, err := s.Memories.FindMemories(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("load the hits: %w", err)
	}
	whole := make(map[string]*recall.Memory, len(ms))
	for _, m := range ms {
		whole[m.ID] = m
	}
	var gone map[*candidate]bool
	for _, c := range lean {
		if m := whole[c.m.ID]; m != nil {
			c.m, c.lean = m, false
		} else {
			if gone == nil {
				gone = map[*candidate]bool{}
			}
			gone[c] = true
		}
	}
	return gone, nil
}
