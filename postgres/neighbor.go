package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

var _ recall.NeighborFinder = (*MemoryService)(nil)

// MemoryNeighbors returns, for each id, the memories stored within radius
// rows of it in the namespace (insertion order) and within window of its
// occurred_at that pass the filter. As on SQLite, the rows are counted
// before the filter applies.
func (s *MemoryService) MemoryNeighbors(ctx context.Context, ids []string, radius int, window time.Duration, f recall.MemoryFilter) (map[string][]recall.Neighbor, error) {
	out := map[string][]recall.Neighbor{}
	if len(ids) == 0 || radius <= 0 {
		return out, nil
	}
	f.ID, f.IDs, f.Offset, f.Limit = nil, nil, 0, 0
	w := newWhere("m", s.db.Namespace)
	if err := w.memories(f); err != nil {
		return nil, err
	}
	idArg, radiusArg, windowArg := w.arg(ids), w.arg(radius), w.arg(window)
	// Each side's nearest rows, numbered outwards from the memory: the
	// namespace's rows interleave with others' in seq, so offsets are
	// counted here rather than taken from seq differences.
	side := func(op, order string) string {
		return fmt.Sprintf(`SELECT n.id, row_number() OVER (ORDER BY n.seq %[2]s) AS d FROM memories n
			WHERE n.namespace = c.namespace AND n.seq %[1]s c.seq ORDER BY n.seq %[2]s LIMIT %[3]s`, op, order, radiusArg)
	}
	sql := `SELECT c.id, near.offset, ` + memoryColumns + ` FROM memories c
		CROSS JOIN LATERAL (SELECT b.id, -b.d AS offset FROM (` + side("<", "DESC") + `) b
			UNION ALL SELECT a.id, a.d FROM (` + side(">", "ASC") + `) a) near
		JOIN memories m ON m.namespace = c.namespace AND m.id = near.id
		WHERE c.namespace = $1 AND c.id = ANY(` + idArg + `::text[])
		AND m.occurred_at BETWEEN c.occurred_at - ` + windowArg + `::interval AND c.occurred_at + ` + windowArg + `::interval
		AND ` + w.sql() + ` ORDER BY c.id, m.seq`
	rows, err := s.db.pool.Query(ctx, sql, w.args...)
	if err != nil {
		return nil, fmt.Errorf("neighbors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var of string
		var offset int
		m, err := scanMemory(headRow{rows, []any{&of, &offset}})
		if err != nil {
			return nil, err
		}
		out[of] = append(out[of], recall.Neighbor{Memory: m, Offset: offset})
	}
	return out, rows.Err()
}

// headRow scans extra columns followed by a memory row.
type headRow struct {
	row   pgx.Row
	extra []any
}

func (r headRow) Scan(dest ...any) error {
	return r.row.Scan(append(append([]any{}, r.extra...), dest...)...)
}
