package recall

import (
	"context"
	"time"
)

// NeighborFinder finds the memories recorded next to others: the turns
// around a turn of a conversation, the notes taken just before and after
// one in a session. Retrieval uses them as context, since the answer to a
// question often sits beside the words that match it.
type NeighborFinder interface {
	// MemoryNeighbors returns, for each id, up to radius memories stored
	// before and after it (in store order) whose occurred_at lies within
	// window of its own, that match filter. Unknown ids are left out.
	// Returns EINVALID for a bad filter.
	MemoryNeighbors(ctx context.Context, ids []string, radius int, window time.Duration, filter MemoryFilter) (map[string][]Neighbor, error)
}

// Neighbor is a memory near another one.
type Neighbor struct {
	Memory *Memory
	Offset int // position relative to the other memory: -1 just before, 1 just after
}
