package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/recall-mem/recall"
)

var _ recall.NeighborFinder = (*MemoryService)(nil)

// MemoryNeighbors returns the memories stored within radius rows of each
// id (by insertion order) and within window of its occurred_at.
func (s *MemoryService) MemoryNeighbors(ctx context.Context, ids []string, radius int, window time.Duration, f recall.MemoryFilter) (map[string][]recall.Neighbor, error) {
	out := map[string][]recall.Neighbor{}
	if len(ids) == 0 || radius <= 0 {
		return out, nil
	}
	f.ID, f.IDs, f.Offset, f.Limit = nil, nil, 0, 0
	where, args, err := whereMemories(f)
	if err != nil {
		return nil, err
	}
	q := `SELECT c.id, m.seq - c.seq, ` + memoryColumns + ` FROM memories c JOIN memories m
		ON m.seq BETWEEN c.seq - ? AND c.seq + ? AND m.seq != c.seq
		AND m.occurred_at BETWEEN c.occurred_at - ? AND c.occurred_at + ?
		WHERE c.id IN ` + inList + ` AND ` + where + ` ORDER BY c.id, m.seq`
	qargs := []any{radius, radius, window.Milliseconds(), window.Milliseconds(), jsonStrings(ids)}
	rows, err := s.db.readQuery(ctx, q, append(qargs, args...)...)
	if err != nil {
		return nil, fmt.Errorf("neighbors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var of string
		var offset int
		m, err := scanMemory(scanHead{rows, []any{&of, &offset}})
		if err != nil {
			return nil, err
		}
		out[of] = append(out[of], recall.Neighbor{Memory: m, Offset: offset})
	}
	return out, rows.Err()
}

// scanHead scans extra columns followed by a memory row.
type scanHead struct {
	row   scanner
	extra []any
}

func (s scanHead) Scan(dest ...any) error {
	return s.row.Scan(append(append([]any{}, s.extra...), dest...)...)
}
