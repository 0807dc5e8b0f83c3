package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/recall-mem/recall"
)

// TierService keeps the bookkeeping of the managed markdown files: sync
// records and batched tier changes.
type TierService struct {
	db *DB
}

var _ recall.TierStore = (*TierService)(nil)

// NewTierService returns a TierService over db.
func NewTierService(db *DB) *TierService { return &TierService{db: db} }

// SyncRecords returns every sync record by id.
func (s *TierService) SyncRecords(ctx context.Context) (map[string]recall.SyncRecord, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT id, file, text, tier FROM sync_records`)
	if err != nil {
		return nil, fmt.Errorf("sync records: %w", err)
	}
	defer rows.Close()
	out := map[string]recall.SyncRecord{}
	for rows.Next() {
		var r recall.SyncRecord
		if err := rows.Scan(&r.ID, &r.File, &r.Text, &r.Tier); err != nil {
			return nil, fmt.Errorf("sync records: %w", err)
		}
		out[r.ID] = r
	}
	return out, rows.Err()
}

// StoreMeta returns the value of a store fact, "" when unset.
func (s *TierService) StoreMeta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.read.QueryRowContext(ctx, `SELECT value FROM store_meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("store meta: %w", err)
	}
	return v, nil
}

// ApplyTierChanges writes inserts, updates, sync records and store facts in
// one transaction. Every memory is validated before anything is written.
func (s *TierService) ApplyTierChanges(ctx context.Context, ch recall.TierChanges) error {
	op := ch.Op
	if op == "" {
		op = "sync"
	}
	inserts := make([]*recall.Memory, len(ch.Insert))
	for i, m := range ch.Insert {
		c := *m
		if err := s.db.clean(&c); err != nil {
			return err
		}
		inserts[i] = &c
	}
	return s.db.update(ctx, func(tx *Tx) error {
		for _, m := range inserts {
			if err := insertMemory(ctx, tx, m, op); err != nil {
				return err
			}
		}
		for _, c := range ch.Update {
			m, err := findMemoryRef(ctx, tx, c.ID, "")
			if err != nil {
				return err
			}
			if err := s.db.apply(m, c.Update); err != nil {
				return err
			}
			if err := writeMemory(ctx, tx, m, op); err != nil {
				return err
			}
		}
		for _, r := range ch.Records {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO sync_records (id, file, text, tier, synced_at) VALUES (?, ?, ?, ?, ?)`,
				r.ID, r.File, r.Text, r.Tier, ms(tx.now)); err != nil {
				return fmt.Errorf("write sync record: %w", err)
			}
		}
		for _, id := range ch.Drop {
			if _, err := tx.ExecContext(ctx, `DELETE FROM sync_records WHERE id = ?`, id); err != nil {
				return fmt.Errorf("drop sync record: %w", err)
			}
		}
		for k, v := range ch.Meta {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)`, k, v); err != nil {
				return fmt.Errorf("write store meta: %w", err)
			}
		}
		return nil
	})
}

// anchoredQuery reads the active memories that have anchors. Its condition
// is the one of the partial index memories_anchored (migration 0013), so
// SQLite reads only the anchored rows, already in id order.
const anchoredQuery = `SELECT ` + memoryColumns + ` FROM memories m WHERE m.status = 'active' AND m.anchors NOT IN ('', '[]', 'null') ORDER BY m.id`

// AnchoredMemories returns the active memories that have anchors.
func (s *TierService) AnchoredMemories(ctx context.Context) ([]*recall.Memory, error) {
	rows, err := s.db.read.QueryContext(ctx, anchoredQuery)
	if err != nil {
		return nil, fmt.Errorf("anchored memories: %w", err)
	}
	defer rows.Close()
	var out []*recall.Memory
	for rows.Next() {
		m, err := scanMemory(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
