package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// MemoryService stores memories in PostgreSQL, in the store's namespace.
type MemoryService struct {
	db *DB
}

var (
	_ recall.MemoryService = (*MemoryService)(nil)
	_ recall.HistoryReader = (*MemoryService)(nil)
	_ recall.Searcher      = (*MemoryService)(nil)
)

// NewMemoryService returns a MemoryService over db.
func NewMemoryService(db *DB) *MemoryService { return &MemoryService{db: db} }

// PutMemory inserts m or writes a new version of the memory with its id
// or its key in its collection.
func (s *MemoryService) PutMemory(ctx context.Context, m *recall.Memory) (*recall.PutResult, error) {
	in := *m
	if err := s.db.checkMemory(&in); err != nil {
		return nil, err
	}
	created, unchanged := false, false
	err := s.db.tx(ctx, func(tx *Tx) error {
		prev, err := tx.previous(ctx, &in)
		if err != nil {
			return err
		}
		if created = prev == nil; created {
			return tx.insert(ctx, &in, "put")
		}
		next := overlay(prev, &in)
		if unchanged = recall.SameMemory(prev, next); unchanged {
			in = *prev // nothing changed: no new version (MemoryService)
			return nil
		}
		in = *next
		return tx.write(ctx, &in, "put")
	})
	if err != nil {
		return nil, err
	}
	if !unchanged {
		s.db.wroteMemories(ctx, &in)
	}
	return &recall.PutResult{Memory: &in, Created: created, Unchanged: unchanged}, nil
}

// previous returns the stored memory that m is a new version of (same
// id, else same key in the same collection), locked for this transaction,
// or nil. The key is locked even when no memory holds it yet, so that two
// puts of a new key cannot both insert.
func (tx *Tx) previous(ctx context.Context, m *recall.Memory) (*recall.Memory, error) {
	if m.ID != "" {
		if prev, err := tx.lockMemory(ctx, "m.id = $2", m.ID); prev != nil || err != nil {
			return prev, err
		}
	}
	if m.Key == "" {
		return nil, nil
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
		tx.db.Namespace+"/"+m.Collection+"/"+m.Key); err != nil {
		return nil, err
	}
	return tx.lockMemory(ctx, "m.collection = $2 AND m.key = $3", m.Collection, m.Key)
}

// lockMemory reads one memory of the namespace FOR UPDATE, or nil.
func (tx *Tx) lockMemory(ctx context.Context, cond string, args ...any) (*recall.Memory, error) {
	m, err := scanMemory(tx.QueryRow(ctx, `SELECT `+memoryColumns+` FROM memories m WHERE m.namespace = $1 AND `+cond+` FOR UPDATE`,
		append([]any{tx.db.Namespace}, args...)...))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return m, err
}

// overlay returns prev with the fields m sets replacing its own, as a put
// of an existing key does on SQLite: content always, the rest when given.
func overlay(prev, m *recall.Memory) *recall.Memory {
	next := *prev
	next.Content = m.Content
	for _, f := range []struct{ dst, v *string }{{&next.Title, &m.Title}, {&next.Type, &m.Type},
		{&next.Category, &m.Category}, {&next.Context, &m.Context}, {&next.Project, &m.Project},
		{&next.Priority, &m.Priority}, {&next.CreatedBy, &m.CreatedBy}, {&next.Tier, &m.Tier},
		{&next.Status, &m.Status}, {&next.Key, &m.Key}} {
		if *f.v != "" {
			*f.dst = *f.v
		}
	}
	if m.Tags != nil {
		next.Tags = m.Tags
	}
	if m.Related != nil {
		next.Related = m.Related
	}
	if m.Anchors != nil {
		next.Anchors = m.Anchors
	}
	if len(m.Metadata) > 0 {
		next.Metadata = m.Metadata
	}
	if m.Confidence > 0 {
		next.Confidence = m.Confidence
	}
	next.Pinned = next.Pinned || m.Pinned
	if !m.OccurredAt.IsZero() {
		next.OccurredAt = m.OccurredAt.UTC()
	}
	return &next
}

// newID makes the id of a memory written without one; a test makes it
// return an id another writer takes to see an import draw again.
var newID = recall.NewID

// insert writes a new memory with its defaults and records its version.
func (tx *Tx) insert(ctx context.Context, m *recall.Memory, op string) error {
	fillDefaults(m, tx.now)
	if m.Confidence == 0 {
		m.Confidence = 1
	}
	if m.Version == 0 {
		m.Version = 1
	}
	if err := tx.checkPinTitle(ctx, m); err != nil {
		return err
	}
	generated := m.ID == ""
	if !generated {
		// A given id may name a deleted memory's history: continued after
		// its last version even where the version asked for is free (a
		// gap), or the history would end in that deletion.
		last, err := tx.lastVersion(ctx, m.ID)
		if err != nil {
			return err
		}
		if last > 0 {
			m.Version = max(m.Version, last+1)
		}
	}
	for attempt := 1; ; attempt++ {
		if generated {
			m.ID = newID()
		}
		// The version row first: a drawn id with a history (a deleted
		// memory's, which keeps it) finds its version taken and is drawn
		// again before any row is written; a given one continues that
		// history after its last version.
		var taken bool
		var err error
		if generated {
			taken, err = tx.saveVersion(ctx, m, op)
		} else {
			err = tx.saveNextVersion(ctx, m, op, false)
		}
		if err != nil {
			return err
		}
		if !taken {
			// A taken id inserts nothing rather than failing, so no
			// savepoint is needed to try another; a taken key fails the
			// statement, and with it the transaction, which is then given
			// up.
			tag, err := tx.Exec(ctx, insertMemorySQL+` ON CONFLICT (namespace, id) DO NOTHING`, append([]any{tx.db.Namespace, m.ID}, memoryValues(m)...)...)
			if uniqueViolation(err) {
				return recall.Errorf(recall.ECONFLICT, "Key %q is already used in collection %q: choose another key or update that memory.", m.Key, m.Collection)
			} else if err != nil {
				return fmt.Errorf("insert memory: %w", err)
			}
			if tag.RowsAffected() == 1 {
				return nil
			}
			// A live memory without that version row: the version row
			// just written is not this memory's.
			if _, err := tx.Exec(ctx, `DELETE FROM memory_versions WHERE namespace = $1 AND memory_id = $2 AND version = $3`,
				tx.db.Namespace, m.ID, m.Version); err != nil {
				return fmt.Errorf("insert memory: %w", err)
			}
		}
		if !generated || attempt >= 10 {
			return recall.Errorf(recall.ECONFLICT, "Memory id %s is already taken.", m.ID)
		}
	}
}

// write stores the new state of an existing memory as its next version.
func (tx *Tx) write(ctx context.Context, m *recall.Memory, op string) error {
	if err := tx.checkPinTitle(ctx, m); err != nil {
		return err
	}
	m.Version++
	m.UpdatedAt = tx.now
	// A clash on a key fails the transaction, which the caller gives up:
	// no savepoint is needed to survive it.
	tag, err := tx.Exec(ctx, updateMemorySQL, append([]any{tx.db.Namespace, m.ID}, memoryValues(m)...)...)
	if uniqueViolation(err) {
		return recall.Errorf(recall.ECONFLICT, "Key %q is already used in collection %q: choose another key.", m.Key, m.Collection)
	} else if err != nil {
		return fmt.Errorf("update memory: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return recall.Errorf(recall.ENOTFOUND, "Memory %s not found: run `recall list` to see ids.", m.ID)
	}
	return tx.saveNextVersion(ctx, m, op, true)
}

// checkPinTitle refuses a second pinned memory with the same title: pins
// are core memory and are deduplicated by title (seed 001).
func (tx *Tx) checkPinTitle(ctx context.Context, m *recall.Memory) error {
	if !m.Pinned || m.Title == "" {
		return nil
	}
	var other string
	err := tx.QueryRow(ctx, `SELECT id FROM memories WHERE namespace = $1 AND pinned AND lower(title) = lower($2) AND id <> $3 LIMIT 1`,
		tx.db.Namespace, m.Title, m.ID).Scan(&other)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	} else if err != nil {
		return err
	}
	return pinConflict(m.Title, other)
}

// FindMemory returns the memory whose id, or key, is ref.
func (s *MemoryService) FindMemory(ctx context.Context, ref, collection string) (*recall.Memory, error) {
	return s.db.findRef(ctx, s.db.pool, ref, collection)
}

func (db *DB) findRef(ctx context.Context, q querier, ref, collection string) (*recall.Memory, error) {
	if !recall.IsID(ref) {
		if err := recall.ValidateKey(ref); err != nil {
			return nil, recall.Errorf(recall.EINVALID, "%q is neither a memory id (tr + 10 hex digits) nor a valid key: run `recall list` to see ids and keys.", ref)
		}
	}
	col := "m.key"
	if recall.IsID(ref) {
		col = "m.id"
	}
	rows, err := q.Query(ctx, `SELECT `+memoryColumns+` FROM memories m
		WHERE m.namespace = $1 AND `+col+` = $2 AND ($3 = '' OR m.collection = $3)
		ORDER BY m.collection LIMIT 10`, db.Namespace, ref, collection)
	found, err := collectRows(rows, err, scanMemory)
	if err != nil {
		return nil, fmt.Errorf("find memory: %w", err)
	}
	switch {
	case len(found) == 0 && recall.IsID(ref) && collection != "":
		return nil, recall.Errorf(recall.ENOTFOUND, "No memory with id %s in collection %q: run `recall list` to see ids.", ref, collection)
	case len(found) == 0 && recall.IsID(ref):
		return nil, recall.Errorf(recall.ENOTFOUND, "No memory with id %s: run `recall list` to see ids (a deleted memory keeps its history: `recall versions %s`).", ref, ref)
	case len(found) == 0 && collection != "":
		return nil, recall.Errorf(recall.ENOTFOUND, "No memory with key %q in collection %q: run `recall list --collection %s` to see keys.", ref, collection, collection)
	case len(found) == 0:
		return nil, recall.Errorf(recall.ENOTFOUND, "No memory with key %q: run `recall list` to see keys, or `recall search %s`.", ref, ref)
	case len(found) == 1:
		return found[0], nil
	}
	var cols []string
	for _, m := range found {
		cols = append(cols, m.Collection)
	}
	return nil, recall.Errorf(recall.ECONFLICT, "Key %q exists in several collections (%s): pass --collection to choose one.", ref, strings.Join(cols, ", "))
}

// FindMemories returns the memories matching filter, newest change first.
func (s *MemoryService) FindMemories(ctx context.Context, f recall.MemoryFilter) ([]*recall.Memory, int, error) {
	w := newWhere("m", s.db.Namespace)
	if err := w.memories(f); err != nil {
		return nil, 0, err
	}
	// Without a page (the searcher loading its candidates by id) the rows
	// are the total: counting them first cost a statement per search.
	paged := f.Limit > 0 || f.Offset > 0
	var total int
	if paged {
		if err := s.db.pool.QueryRow(ctx, `SELECT count(*) FROM memories m WHERE `+w.sql(), w.args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("count memories: %w", err)
		}
	}
	order := "m.updated_at DESC, m.seq DESC"
	if f.Newest {
		order = "m.occurred_at DESC, m.seq DESC"
	}
	var limit any // NULL: no limit
	if f.Limit > 0 {
		limit = f.Limit
	}
	query := `SELECT ` + memoryColumns + ` FROM memories m WHERE ` + w.sql() +
		` ORDER BY ` + order + ` LIMIT ` + w.arg(limit) + ` OFFSET ` + w.arg(max(f.Offset, 0))
	rows, err := s.db.pool.Query(ctx, query, w.args...)
	out, err := collectRows(rows, err, scanMemory)
	if err != nil {
		return nil, 0, fmt.Errorf("find memories: %w", err)
	}
	if !paged {
		total = len(out)
	}
	return out, total, nil
}

// UpdateMemory applies upd to the memory with this id.
func (s *MemoryService) UpdateMemory(ctx context.Context, id string, upd recall.MemoryUpdate) (*recall.Memory, error) {
	var out *recall.Memory
	changed := false
	err := s.db.tx(ctx, func(tx *Tx) error {
		m, err := tx.lockRef(ctx, id)
		if err != nil {
			return err
		}
		before := *m
		if err := s.db.applyUpdate(m, upd); err != nil {
			return err
		}
		if recall.SameMemory(&before, m) {
			out = &before // nothing changed: no new version (MemoryService)
			return nil
		}
		out, changed = m, true
		return tx.write(ctx, m, "update")
	})
	if err != nil {
		return nil, err
	}
	if changed {
		s.db.wroteMemories(ctx, out)
	}
	return out, nil
}

// lockRef finds the memory ref names and locks its row.
func (tx *Tx) lockRef(ctx context.Context, ref string) (*recall.Memory, error) {
	m, err := tx.db.findRef(ctx, tx, ref, "")
	if err != nil {
		return nil, err
	}
	if m, err = tx.lockMemory(ctx, "m.id = $2", m.ID); m == nil && err == nil {
		err = recall.Errorf(recall.ENOTFOUND, "Memory %s was deleted meanwhile.", ref)
	}
	return m, err
}

// DeleteMemory removes a memory and records the deletion as its last
// version, so the history stays restorable.
func (s *MemoryService) DeleteMemory(ctx context.Context, id string) error {
	return s.db.tx(ctx, func(tx *Tx) error {
		m, err := tx.lockRef(ctx, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM memories WHERE namespace = $1 AND id = $2`, tx.db.Namespace, m.ID); err != nil {
			return fmt.Errorf("delete memory: %w", err)
		}
		m.Version++
		m.UpdatedAt = tx.now
		return tx.saveNextVersion(ctx, m, "delete", false)
	})
}
