package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// saveVersion records m's current state as version m.Version and
// reports whether that version was taken, in which case it wrote
// nothing: no write replaces a version row (a deleted memory keeps its
// history).
func (tx *Tx) saveVersion(ctx context.Context, m *recall.Memory, op string) (taken bool, err error) {
	snap, err := json.Marshal(m)
	if err != nil {
		return false, fmt.Errorf("snapshot: %w", err)
	}
	tag, err := tx.Exec(ctx, insertVersionSQL, tx.db.Namespace, m.ID, m.Version, op, tx.now, string(snap))
	if err != nil {
		return false, fmt.Errorf("save version: %w", err)
	}
	return tag.RowsAffected() == 0, nil
}

// saveNextVersion records m's current state as its next version: version
// m.Version, or when the memory's history already has that one, the one
// after its last, to which the live row (live) moves as well. The history
// is ahead of the live row only when the id was a deleted memory's, given
// again, or in a store whose history an older recall overwrote.
func (tx *Tx) saveNextVersion(ctx context.Context, m *recall.Memory, op string, live bool) error {
	for range 2 { // after the history's last, a version is free
		taken, err := tx.saveVersion(ctx, m, op)
		if err != nil || !taken {
			return err
		}
		last, err := tx.lastVersion(ctx, m.ID)
		if err != nil {
			return err
		}
		m.Version = max(m.Version, last+1)
		if live {
			if _, err := tx.Exec(ctx, `UPDATE memories SET version = $3 WHERE namespace = $1 AND id = $2`, tx.db.Namespace, m.ID, m.Version); err != nil {
				return fmt.Errorf("save version: %w", err)
			}
		}
	}
	return fmt.Errorf("save version: version %d of %s is taken", m.Version, m.ID)
}

// lastVersion is the largest version in the history of the memory id, 0
// for none.
func (tx *Tx) lastVersion(ctx context.Context, id string) (int, error) {
	var last int
	if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM memory_versions WHERE namespace = $1 AND memory_id = $2`,
		tx.db.Namespace, id).Scan(&last); err != nil {
		return 0, fmt.Errorf("last version: %w", err)
	}
	return last, nil
}

// writeVersionSQL writes a version row; each use says what a taken
// (memory_id, version) does: a store's own writes never replace one
// (insertVersionSQL), a store copy mirrors the source's rows.
const writeVersionSQL = `INSERT INTO memory_versions (namespace, memory_id, version, op, changed_at, snapshot)
	VALUES ($1, $2, $3, $4, $5, $6::json)`

const insertVersionSQL = writeVersionSQL + ` ON CONFLICT (namespace, memory_id, version) DO NOTHING`

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

// MemoryVersion returns version n of the memory ref as it was then.
func (s *MemoryService) MemoryVersion(ctx context.Context, ref string, n int) (*recall.Memory, error) {
	vs, err := s.db.versions(ctx, s.db.pool, ref)
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		if v.Version == n {
			return v.Memory, nil
		}
	}
	return nil, recall.Errorf(recall.ENOTFOUND, "Memory %s has no version %d: run `recall versions %s` to list them.", ref, n, ref)
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
	s.db.wroteMemories(ctx, out)
	return out, nil
}

// importAttempts bounds the transactions of one import that find an id
// they drew taken at the COPY.
const importAttempts = 5

// ImportMemories writes every memory, ids kept, in one transaction:
// either all are written or none. An id it drew for a memory without one
// that another writer takes between its check and its COPY fails the
// transaction; it is run again with ids drawn afresh (the check cannot
// see rows not yet committed, and a savepoint for every batch would cost
// every import for a clash of a few in a thousand concurrent ones).
func (s *MemoryService) ImportMemories(ctx context.Context, ms []*recall.Memory) (*recall.ImportResult, error) {
	clean := make([]*recall.Memory, len(ms))
	for i, m := range ms {
		c := *m
		if err := s.db.checkMemory(&c); err != nil {
			return nil, recall.Errorf(recall.ErrorCode(err), "Memory %d (%s): %s Nothing was imported.", i+1, c.ID, recall.ErrorMessage(err))
		}
		clean[i] = &c
	}
	for attempt := 1; ; attempt++ {
		batch := make([]*recall.Memory, len(clean))
		for i, c := range clean {
			m := *c
			batch[i] = &m
		}
		res, written, err := s.importOnce(ctx, batch)
		if err == nil {
			s.db.wroteMemories(ctx, written...)
			s.db.added(ctx, res.Added)
			return res, nil
		}
		if attempt == importAttempts || !s.drawnIDTaken(ctx, clean, batch, err) {
			return nil, err
		}
	}
}

// drawnIDTaken reports whether err is a clash at the COPY on an id the
// import drew (batch[i] for clean[i] without one): the clash is only
// reported once the other writer has committed, so the row is visible.
func (s *MemoryService) drawnIDTaken(ctx context.Context, clean, batch []*recall.Memory, err error) bool {
	var clash *copyClash
	if !errors.As(err, &clash) {
		return false
	}
	var drawn []string
	for i, c := range clean {
		if c.ID == "" {
			drawn = append(drawn, batch[i].ID)
		}
	}
	taken := false
	if len(drawn) > 0 {
		if err := s.db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM memories WHERE namespace = $1 AND id = ANY($2::text[]))
			OR EXISTS (SELECT 1 FROM memory_versions WHERE namespace = $1 AND memory_id = ANY($2::text[]))`,
			s.db.Namespace, drawn).Scan(&taken); err != nil {
			return false
		}
	}
	return taken
}

// importOnce writes the batch in one transaction, giving the memories
// without an id one.
func (s *MemoryService) importOnce(ctx context.Context, clean []*recall.Memory) (*recall.ImportResult, []*recall.Memory, error) {
	res := &recall.ImportResult{}
	var written []*recall.Memory // what the vectors follow, not the unchanged
	err := s.db.tx(ctx, func(tx *Tx) error {
		written = written[:0]
		prev, err := tx.lockImport(ctx, clean)
		if err != nil {
			return err
		}
		// New memories wait in a batch; one whose id comes again in the
		// import is written before that, so the second is its next
		// version, as when importing one at a time.
		var fresh []*recall.Memory
		var at []int // each fresh memory's position in the import, for messages
		queued := map[string]bool{}
		flush := func() error {
			if err := tx.insertAll(ctx, fresh, at, "import"); err != nil {
				return err
			}
			res.Added += len(fresh)
			written = append(written, fresh...)
			for _, m := range fresh {
				prev[m.ID] = m
			}
			fresh, at, queued = nil, nil, map[string]bool{}
			return nil
		}
		for i, m := range clean {
			if queued[m.ID] {
				if err := flush(); err != nil {
					return err
				}
			}
			p := prev[m.ID]
			if p == nil {
				fresh, at, queued[m.ID] = append(fresh, m), append(at, i), true
				continue
			}
			m.Version = p.Version
			if m.CreatedAt.IsZero() {
				m.CreatedAt = p.CreatedAt
			}
			fillDefaults(m, tx.now)
			if recall.SameMemory(p, m) {
				res.Unchanged++ // keeps its version (MemoryService)
				continue
			}
			if err := tx.write(ctx, m, "import"); err != nil {
				return importError(i, m, err)
			}
			prev[m.ID] = m
			written = append(written, m)
			res.Updated++
		}
		return flush()
	})
	if err != nil {
		return nil, nil, err
	}
	return res, written, nil
}

func importError(i int, m *recall.Memory, err error) error {
	return recall.Errorf(recall.ErrorCode(err), "Memory %d (%s): %s Nothing was imported.", i+1, m.ID, recall.ErrorMessage(err))
}

// lockImport gives every memory without an id a new one, locks the rows
// of the ids that exist and returns them by id. A new id that happens to
// be taken already (or twice in the batch), by a memory or by the history
// of a deleted one, is drawn again. A memory whose given id has a history
// but no live row continues it: its version is the one after the
// history's last, unless it gives a later one.
func (tx *Tx) lockImport(ctx context.Context, ms []*recall.Memory) (map[string]*recall.Memory, error) {
	generated := map[*recall.Memory]bool{}
	seen := map[string]bool{}
	for _, m := range ms {
		if m.ID == "" {
			generated[m] = true
			for m.ID == "" || seen[m.ID] {
				m.ID = newID()
			}
		}
		seen[m.ID] = true
	}
	for {
		ids := make([]string, 0, len(ms))
		for _, m := range ms {
			ids = append(ids, m.ID)
		}
		rows, err := tx.Query(ctx, `SELECT `+memoryColumns+` FROM memories m WHERE m.namespace = $1 AND m.id = ANY($2::text[]) FOR UPDATE`,
			tx.db.Namespace, ids)
		found, err := collectRows(rows, err, scanMemory)
		if err != nil {
			return nil, err
		}
		prev := make(map[string]*recall.Memory, len(found))
		for _, m := range found {
			prev[m.ID] = m
		}
		var unlived []string
		for _, id := range ids {
			if prev[id] == nil {
				unlived = append(unlived, id)
			}
		}
		last, err := tx.lastVersions(ctx, unlived)
		if err != nil {
			return nil, err
		}
		redrawn := false
		for _, m := range ms {
			_, history := last[m.ID]
			switch {
			case generated[m] && (prev[m.ID] != nil || history):
				for seen[m.ID] {
					m.ID = newID()
				}
				seen[m.ID], redrawn = true, true
			case history && prev[m.ID] == nil:
				m.Version = max(m.Version, last[m.ID]+1)
			}
		}
		if !redrawn {
			return prev, nil
		}
	}
}

// lastVersions is the largest version of each of ids that has a history.
func (tx *Tx) lastVersions(ctx context.Context, ids []string) (map[string]int, error) {
	out := map[string]int{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := tx.Query(ctx, `SELECT memory_id, MAX(version) FROM memory_versions
		WHERE namespace = $1 AND memory_id = ANY($2::text[]) GROUP BY memory_id`, tx.db.Namespace, ids)
	if err != nil {
		return nil, fmt.Errorf("histories: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var v int
		if err := rows.Scan(&id, &v); err != nil {
			return nil, err
		}
		out[id] = v
	}
	return out, rows.Err()
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
