package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// saveVersion records m's current state as version m.Version. The primary
// key refuses a second writer of the same version, so versions stay
// gap-free and never overwritten.
func (tx *Tx) saveVersion(ctx context.Context, m *recall.Memory, op string) error {
	snap, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO memory_versions (namespace, memory_id, version, op, changed_at, snapshot)
		VALUES ($1, $2, $3, $4, $5, $6::jsonb)`, tx.db.Namespace, m.ID, m.Version, op, tx.now, string(snap)); err != nil {
		return fmt.Errorf("save version: %w", err)
	}
	return nil
}

func scanVersion(row pgx.Row) (*recall.MemoryVersion, error) {
	v := &recall.MemoryVersion{}
	var snap string
	if err := row.Scan(&v.MemoryID, &v.Version, &v.Op, &v.ChangedAt, &snap); err != nil {
		return nil, err
	}
	v.ChangedAt = v.ChangedAt.UTC()
	if err := json.Unmarshal([]byte(snap), &v.Memory); err != nil {
		return nil, fmt.Errorf("decode version %d of %s: %w", v.Version, v.MemoryID, err)
	}
	return v, nil
}

// MemoryVersions lists every stored version of a memory, oldest first;
// ref is a live memory's id or key, or a deleted memory's id.
func (s *MemoryService) MemoryVersions(ctx context.Context, ref string) ([]*recall.MemoryVersion, error) {
	return s.db.versions(ctx, s.db.pool, ref)
}

func (db *DB) versions(ctx context.Context, q querier, ref string) ([]*recall.MemoryVersion, error) {
	id := ref
	if m, err := db.findRef(ctx, q, ref, ""); err == nil {
		id = m.ID
	} else if !recall.IsID(ref) {
		return nil, err
	}
	rows, err := q.Query(ctx, `SELECT memory_id, version, op, changed_at, snapshot::text FROM memory_versions
		WHERE namespace = $1 AND memory_id = $2 ORDER BY version`, db.Namespace, id)
	out, err := collectRows(rows, err, scanVersion)
	if err != nil {
		return nil, fmt.Errorf("versions: %w", err)
	}
	if len(out) == 0 {
		return nil, recall.Errorf(recall.ENOTFOUND, "No history for %s: run `recall list` to see ids.", ref)
	}
	return out, nil
}

// RestoreMemory writes version n back as a new version, recreating a
// deleted memory.
func (s *MemoryService) RestoreMemory(ctx context.Context, ref string, n int) (*recall.Memory, error) {
	var out *recall.Memory
	err := s.db.tx(ctx, func(tx *Tx) error {
		vs, err := tx.db.versions(ctx, tx, ref)
		if err != nil {
			return err
		}
		var old *recall.MemoryVersion
		for _, v := range vs {
			if v.Version == n {
				old = v
			}
		}
		if old == nil {
			return recall.Errorf(recall.ENOTFOUND, "Memory %s has no version %d: run `recall versions %s` to list them.", ref, n, ref)
		}
		if old.Op == "delete" {
			return recall.Errorf(recall.EINVALID, "Version %d records the deletion; restore an earlier version.", n)
		}
		m := *old.Memory
		m.Version = vs[len(vs)-1].Version
		cur, err := tx.lockMemory(ctx, "m.id = $2", m.ID)
		if err != nil {
			return err
		}
		out = &m
		if cur != nil {
			m.CreatedAt = cur.CreatedAt
			return tx.write(ctx, &m, "restore")
		}
		m.Version++
		m.UpdatedAt = tx.now
		return tx.insert(ctx, &m, "restore")
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ImportMemories writes every memory, ids kept, in one transaction:
// either all are written or none.
func (s *MemoryService) ImportMemories(ctx context.Context, ms []*recall.Memory) (*recall.ImportResult, error) {
	clean := make([]*recall.Memory, len(ms))
	for i, m := range ms {
		c := *m
		if err := s.db.checkMemory(&c); err != nil {
			return nil, recall.Errorf(recall.ErrorCode(err), "Memory %d (%s): %s Nothing was imported.", i+1, c.ID, recall.ErrorMessage(err))
		}
		clean[i] = &c
	}
	res := &recall.ImportResult{}
	err := s.db.tx(ctx, func(tx *Tx) error {
		for i, m := range clean {
			var prev *recall.Memory
			var err error
			if m.ID != "" {
				if prev, err = tx.lockMemory(ctx, "m.id = $2", m.ID); err != nil {
					return err
				}
			}
			if prev != nil {
				m.Version = prev.Version
				if m.CreatedAt.IsZero() {
					m.CreatedAt = prev.CreatedAt
				}
				fillDefaults(m, tx.now)
				err = tx.write(ctx, m, "import")
				res.Updated++
			} else {
				err = tx.insert(ctx, m, "import")
				res.Added++
			}
			if err != nil {
				return recall.Errorf(recall.ErrorCode(err), "Memory %d (%s): %s Nothing was imported.", i+1, m.ID, recall.ErrorMessage(err))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// MemoriesAsOf returns each memory's latest snapshot taken at or before t,
// leaving out memories whose latest change then was their deletion.
func (s *MemoryService) MemoriesAsOf(ctx context.Context, t time.Time) ([]*recall.Memory, error) {
	rows, err := s.db.pool.Query(ctx, `SELECT memory_id, version, op, changed_at, snapshot::text FROM (
		SELECT DISTINCT ON (memory_id) memory_id, version, op, changed_at, snapshot FROM memory_versions
		WHERE namespace = $1 AND changed_at <= $2 ORDER BY memory_id, version DESC) v
		WHERE op <> 'delete' ORDER BY memory_id`, s.db.Namespace, t.UTC())
	vs, err := collectRows(rows, err, scanVersion)
	if err != nil {
		return nil, fmt.Errorf("memories as of: %w", err)
	}
	out := make([]*recall.Memory, len(vs))
	for i, v := range vs {
		out[i] = v.Memory
	}
	return out, nil
}
