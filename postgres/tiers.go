package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// TierService keeps the bookkeeping of the managed markdown files: sync
// records and store facts, in the namespace.
type TierService struct {
	db *DB
}

// NewTierService returns a TierService over db.
func NewTierService(db *DB) *TierService { return &TierService{db: db} }

// SyncRecords returns every sync record by id.
func (s *TierService) SyncRecords(ctx context.Context) (map[string]recall.SyncRecord, error) {
	rows, err := s.db.pool.Query(ctx, `SELECT id, file, text, tier FROM sync_records WHERE namespace = $1`, s.db.Namespace)
	recs, err := collectRows(rows, err, func(r pgx.Row) (rec recall.SyncRecord, err error) {
		return rec, r.Scan(&rec.ID, &rec.File, &rec.Text, &rec.Tier)
	})
	if err != nil {
		return nil, fmt.Errorf("sync records: %w", err)
	}
	out := make(map[string]recall.SyncRecord, len(recs))
	for _, r := range recs {
		out[r.ID] = r
	}
	return out, nil
}

// StoreMeta returns the value of a store fact, "" when unset.
func (s *TierService) StoreMeta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.pool.QueryRow(ctx, `SELECT value FROM store_meta WHERE namespace = $1 AND key = $2`, s.db.Namespace, key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("store meta: %w", err)
	}
	return v, nil
}

// ApplyTierChanges writes inserts, updates, sync records and store facts in
// one transaction. Every inserted memory is validated (and redacted)
// before anything is written.
func (s *TierService) ApplyTierChanges(ctx context.Context, ch recall.TierChanges) error {
	op := ch.Op
	if op == "" {
		op = "sync"
	}
	inserts := make([]*recall.Memory, len(ch.Insert))
	for i, m := range ch.Insert {
		c := *m
		if err := s.db.checkMemory(&c); err != nil {
			return err
		}
		inserts[i] = &c
	}
	err := s.db.tx(ctx, func(tx *Tx) error {
		// One sync or maintenance step at a time per namespace: two machines
		// writing the same managed files would otherwise interleave.
		if err := tx.lockJob(ctx, jobTiers); err != nil {
			return err
		}
		ns := tx.db.Namespace
		for _, m := range inserts {
			if err := tx.insert(ctx, m, op); err != nil {
				return err
			}
		}
		for _, c := range ch.Update {
			m, err := tx.lockRef(ctx, c.ID)
			if err != nil {
				return err
			}
			if err := tx.db.applyUpdate(m, c.Update); err != nil {
				return err
			}
			if err := tx.write(ctx, m, op); err != nil {
				return err
			}
		}
		for _, r := range ch.Records {
			if _, err := tx.Exec(ctx, `INSERT INTO sync_records (namespace, id, file, text, tier, synced_at) VALUES ($1, $2, $3, $4, $5, $6)
				ON CONFLICT (namespace, id) DO UPDATE SET file = excluded.file, text = excluded.text, tier = excluded.tier, synced_at = excluded.synced_at`,
				ns, r.ID, r.File, r.Text, r.Tier, tx.now); err != nil {
				return fmt.Errorf("write sync record: %w", err)
			}
		}
		if len(ch.Drop) > 0 {
			if _, err := tx.Exec(ctx, `DELETE FROM sync_records WHERE namespace = $1 AND id = ANY($2)`, ns, ch.Drop); err != nil {
				return fmt.Errorf("drop sync records: %w", err)
			}
		}
		for k, v := range ch.Meta {
			if err := tx.setMeta(ctx, k, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		ids := make([]string, 0, len(inserts)+len(ch.Update))
		for _, m := range inserts {
			ids = append(ids, m.ID)
		}
		for _, c := range ch.Update {
			ids = append(ids, c.ID)
		}
		s.db.wrote(ctx, ids...)
	}
	return err
}

// setMetaSQL sets the store fact $2 of namespace $1 to $3.
const setMetaSQL = `INSERT INTO store_meta (namespace, key, value) VALUES ($1, $2, $3)
	ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value`

// setMeta sets a store fact of the namespace.
func (tx *Tx) setMeta(ctx context.Context, key, value string) error {
	if _, err := tx.Exec(ctx, setMetaSQL, tx.db.Namespace, key, value); err != nil {
		return fmt.Errorf("write store meta: %w", err)
	}
	return nil
}

// AnchoredMemories returns the active memories that have anchors.
func (s *TierService) AnchoredMemories(ctx context.Context) ([]*recall.Memory, error) {
	rows, err := s.db.pool.Query(ctx, `SELECT `+memoryColumns+` FROM memories m
		WHERE m.namespace = $1 AND m.status = 'active' AND jsonb_typeof(m.anchors) = 'array' AND jsonb_array_length(m.anchors) > 0 ORDER BY m.id`, s.db.Namespace)
	out, err := collectRows(rows, err, scanMemory)
	if err != nil {
		return nil, fmt.Errorf("anchored memories: %w", err)
	}
	return out, nil
}
