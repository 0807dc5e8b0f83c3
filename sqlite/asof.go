package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/recall-mem/recall"
)

var _ recall.HistoryReader = (*MemoryService)(nil)

// MemoriesAsOf returns each memory's latest snapshot taken at or before t,
// skipping memories whose latest change then was their deletion.
func (s *MemoryService) MemoriesAsOf(ctx context.Context, t time.Time) ([]*recall.Memory, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+versionSnapshotSQL+` FROM memory_versions v
		JOIN (SELECT memory_id, MAX(version) AS version FROM memory_versions WHERE changed_at <= ? GROUP BY memory_id) l
		ON v.memory_id = l.memory_id AND v.version = l.version
		WHERE v.op != 'delete' ORDER BY v.memory_id`, ms(t))
	if err != nil {
		return nil, fmt.Errorf("memories as of: %w", err)
	}
	defer rows.Close()
	var out []*recall.Memory
	for rows.Next() {
		var snap string
		if err := rows.Scan(&snap); err != nil {
			return nil, err
		}
		var m recall.Memory
		if err := json.Unmarshal([]byte(snap), &m); err != nil {
			return nil, fmt.Errorf("decode snapshot: %w", err)
		}
		out = append(out, &m)
	}
	return out, rows.Err()
}
