package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/recall-mem/recall"
)

// MemoryService stores memories in SQLite.
type MemoryService struct {
	db *DB

	maxScored int // rows a search may score; 0 means maxScored (tests lower it)
}

var _ recall.MemoryService = (*MemoryService)(nil)

// NewMemoryService returns a MemoryService over db.
func NewMemoryService(db *DB) *MemoryService { return &MemoryService{db: db} }

// PutMemory inserts m or writes a new version of the memory with its id or
// its key in its collection.
func (s *MemoryService) PutMemory(ctx context.Context, m *recall.Memory) (*recall.PutResult, error) {
	in := *m
	if err := s.db.clean(&in); err != nil {
		return nil, err
	}
	var res *recall.PutResult
	err := s.db.update(ctx, func(tx *Tx) (err error) {
		res, err = putMemory(ctx, tx, &in)
		return err
	})
	return res, err
}

// clean validates a memory before it is written and redacts its text.
func (db *DB) clean(m *recall.Memory) error {
	if err := m.CheckUTF8(); err != nil {
		return err
	}
	if m.Collection == "" {
		m.Collection = recall.DefaultCollection
	}
	if err := recall.ValidateCollection(m.Collection); err != nil {
		return err
	}
	if m.Key != "" {
		if err := recall.ValidateKey(m.Key); err != nil {
			return err
		}
	}
	if m.ID != "" && !recall.IsID(m.ID) {
		return recall.Errorf(recall.EINVALID, "Invalid id %q: ids are \"tr\" and 10 lower-case hex digits; leave it empty to get a new one.", m.ID)
	}
	if err := validateTierStatus(m.Tier, m.Status); err != nil {
		return err
	}
	if err := recall.ValidateType(m.Type); err != nil {
		return err
	}
	if !(m.Confidence >= 0 && m.Confidence <= 1) { // NaN too
		return recall.Errorf(recall.EINVALID, "Invalid confidence %g: use a number from 0 to 1.", m.Confidence)
	}
	if err := recall.ValidateAnchors(m.Anchors); err != nil {
		return err
	}
	if len(m.Content) > db.maxContent() {
		return recall.Errorf(recall.ETOOLARGE, "Content is %d bytes, over the limit of %d: split it into several memories or raise [limits] max_content_bytes in config.toml.", len(m.Content), db.maxContent())
	}
	if strings.TrimSpace(m.Content) == "" && m.Title == "" {
		return recall.Errorf(recall.EINVALID, "Empty memory: give some content (a file, stdin or text) or a title.")
	}
	return db.redactFields(&m.Metadata, &m.Tags, &m.Title, &m.Content, &m.Context, &m.Category)
}

func validateTierStatus(tier, status string) error {
	if err := recall.ValidateTier(tier); err != nil {
		return err
	}
	return recall.ValidateStatus(status)
}

func (db *DB) redact(s string) string {
	if db.Redactor == nil || s == "" {
		return s
	}
	out, _ := db.Redactor.Redact(s)
	return out
}

// putMemory writes m inside tx: a new version of an existing memory with
// the same id or key, else a new memory.
func putMemory(ctx context.Context, tx *Tx, m *recall.Memory) (*recall.PutResult, error) {
	var prev *recall.Memory
	var err error
	if m.ID != "" {
		if prev, err = findMemoryBy(ctx, tx, "m.id = ?", m.ID); err != nil && recall.ErrorCode(err) != recall.ENOTFOUND {
			return nil, err
		}
	}
	if prev == nil && m.Key != "" {
		if prev, err = findMemoryBy(ctx, tx, "m.collection = ? AND m.key = ?", m.Collection, m.Key); err != nil && recall.ErrorCode(err) != recall.ENOTFOUND {
			return nil, err
		}
	}
	if prev == nil {
		if err := insertMemory(ctx, tx, m, "put"); err != nil {
			return nil, err
		}
		return &recall.PutResult{Memory: m, Created: true}, nil
	}
	next := overlay(prev, m)
	if recall.SameMemory(prev, next) {
		return &recall.PutResult{Memory: prev, Unchanged: true}, nil
	}
	if err := writeMemory(ctx, tx, next, "put"); err != nil {
		return nil, err
	}
	return &recall.PutResult{Memory: next, Created: false}, nil
}

// overlay returns prev with the fields that m sets replacing its own.
func overlay(prev, m *recall.Memory) *recall.Memory {
	next := *prev
	next.Content = m.Content
	setS := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	setS(&next.Title, m.Title)
	setS(&next.Type, m.Type)
	setS(&next.Category, m.Category)
	setS(&next.Context, m.Context)
	setS(&next.Project, m.Project)
	setS(&next.Priority, m.Priority)
	setS(&next.CreatedBy, m.CreatedBy)
	setS(&next.Tier, m.Tier)
	setS(&next.Status, m.Status)
	setS(&next.Key, m.Key)
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
	if m.Pinned {
		next.Pinned = true
	}
	if !m.OccurredAt.IsZero() {
		next.OccurredAt = m.OccurredAt
	}
	return &next
}

// newID makes the id of a memory inserted without one; a test makes it
// return a taken id to see insertMemory draw again.
var newID = recall.NewID

// insertMemory inserts a new memory, filling defaults, and records version 1
// (or the version m has). A generated id that is taken (ids are 40 bits,
// 28 of them random within a tick of the clock: see recall.NewID) is
// drawn again, up to ten times; an id with a history (a deleted memory's)
// is taken as well, found when the version row finds its version taken:
// the row is taken back and the memory inserted again. A given id with a
// history continues it: the memory becomes the version after its last.
func insertMemory(ctx context.Context, tx *Tx, m *recall.Memory, op string) error {
	if m.Tier == "" {
		m.Tier = recall.TierRegister
	}
	if m.Status == "" {
		m.Status = recall.StatusActive
	}
	if m.Confidence == 0 {
		m.Confidence = 1
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = tx.now
	}
	if m.UpdatedAt.IsZero() {
		m.UpdatedAt = tx.now
	}
	if m.OccurredAt.IsZero() {
		m.OccurredAt = m.CreatedAt
	}
	if m.Version == 0 {
		m.Version = 1
	}
	if m.ID != "" {
		// A given id may name a deleted memory, whose history stays: the
		// memory continues it, after its last version, even where the
		// version asked for is free (a gap, or below the history's first
		// kept version), or the history would end in that deletion.
		var last int
		var err error
		if tx.rows != nil && tx.rows.lasts != nil {
			last = tx.rows.lasts[m.ID]
		} else if last, err = lastVersion(ctx, tx, m.ID); err != nil {
			return err
		}
		if last > 0 {
			m.Version = max(m.Version, last+1)
		}
	}
	if err := checkPinTitle(ctx, tx, m); err != nil {
		return err
	}
	in := pendingInsert{m: m, op: op, drawn: m.ID == ""}
	return insertDrawn(ctx, tx, &in)
}

// maxDraws bounds the ids drawn for one memory.
const maxDraws = 10

// insertDrawn inserts in.m, drawing its id when in.drawn.
func insertDrawn(ctx context.Context, tx *Tx, in *pendingInsert) error {
	m := in.m
	for {
		if in.drawn {
			m.ID = newID()
			in.draws++
		}
		var args [memoryRowArgs]any // on the stack: exec copies them
		var res sql.Result
		var err error
		if plainMemory(m) {
			res, err = tx.exec(ctx, insertPlainMemorySQL, plainMemoryArgs(args[:0], m)...)
		} else {
			res, err = tx.exec(ctx, insertMemorySQL, appendMemoryArgs(append(args[:0], m.ID), m)...)
		}
		if err != nil {
			if !isConstraint(err) {
				return fmt.Errorf("insert memory: %w", err)
			}
			if m.Key != "" && keyTaken(ctx, tx, m) {
				return recall.Errorf(recall.ECONFLICT, "Key %q is already used in collection %q: choose another key or update that memory.", m.Key, m.Collection)
			}
			if !in.drawn || in.draws >= maxDraws {
				return idTaken(m)
			}
			continue
		}
		if in.seq, err = indexMemory(ctx, tx, res, m); err != nil {
			return err
		}
		if tx.rows != nil {
			// An import: its version rows wait for a multi-row statement,
			// whose short count tells a taken one (flushVersions). The
			// vectors or queue row go first: the flush that this version
			// may set off can take this very row back and insert it again
			// (retakeInserts, with its own), and nothing of the row as it
			// was may be written after that.
			if err := embedOrQueue(ctx, tx, m, in.seq, true); err != nil {
				return err
			}
			return bufferVersion(ctx, tx, in)
		}
		if !in.drawn {
			if err := saveNextVersion(ctx, tx, m, in.op, true); err != nil {
				return err
			}
			break
		}
		taken, err := saveVersion(ctx, tx, m, in.op, true)
		if err != nil {
			return err
		}
		if !taken {
			break
		}
		if err := takeBack(ctx, tx, in.seq); err != nil {
			return err
		}
		if in.draws >= maxDraws {
			return idTaken(m)
		}
	}
	return embedOrQueue(ctx, tx, m, in.seq, true)
}

func idTaken(m *recall.Memory) error {
	return recall.Errorf(recall.ECONFLICT, "Memory id %s is already taken.", m.ID)
}

// takeBack deletes the memory row seq that this transaction has just
// inserted, and with it, by the triggers, its full-text row, tags, queue
// row and vectors; its version row was never written.
func takeBack(ctx context.Context, tx *Tx, seq int64) error {
	if _, err := tx.exec(ctx, `DELETE FROM memories WHERE seq = ?`, seq); err != nil {
		return fmt.Errorf("take back memory: %w", err)
	}
	return nil
}

// retakeInserts inserts again the memories of an import whose version
// row its multi-row statement left out, the version being taken: the
// history of a deleted memory with that id. A drawn id is drawn again.
// A given id's history is known before its row is written (insertMemory
// asks for its last version), so only a drawn one is expected here; a
// given one all the same goes after the last version rather than being
// refused again. Each row is taken back first: the queue row and any
// vectors it has carry the version. This happens once in millions of
// drawn ids.
func retakeInserts(ctx context.Context, tx *Tx, again []pendingInsert) error {
	// Their tag rows may be pending: they go before the rows they name.
	if _, err := tx.rows.tags.flush(ctx, tx); err != nil {
		return err
	}
	for i := range again {
		in := &again[i]
		if err := takeBack(ctx, tx, in.seq); err != nil {
			return err
		}
		if in.drawn {
			if in.draws >= maxDraws {
				return idTaken(in.m)
			}
		} else {
			last, err := lastVersion(ctx, tx, in.m.ID)
			if err != nil {
				return err
			}
			in.m.Version = max(in.m.Version, last+1)
		}
		if err := insertDrawn(ctx, tx, in); err != nil {
			return err
		}
	}
	return nil
}

// indexMemory adds the memory just inserted (res) to the full-text index,
// in the same transaction. It is a statement of its own rather than a
// trigger so that a batch of inserts flushes the index once (see migration
// 0008).
func indexMemory(ctx context.Context, tx *Tx, res sql.Result, m *recall.Memory) (int64, error) {
	seq, err := res.LastInsertId()
	tags := stringsText(m.Tags)
	if err == nil {
		_, err = tx.exec(ctx, indexMemorySQL, seq, m.Title, m.Content, tags)
	}
	if err == nil {
		err = tagMemory(ctx, tx, seq, m.Tags, tags)
	}
	if err != nil {
		return 0, fmt.Errorf("index memory: %w", err)
	}
	return seq, nil
}

// tagMemory lists a new memory's tags in memory_tags: one insert of each
// tag's own text when that is what json_each reads back from the tags
// column (valid UTF-8, no control characters), and none for no tags;
// else the column's JSON through json_each. The json_each statement was
// a tenth of an import's writing.
func tagMemory(ctx context.Context, tx *Tx, seq int64, tags []string, tagsJSON string) error {
	if !slices.ContainsFunc(tags, func(t string) bool { return !plainText(t) }) {
		for _, t := range tags {
			var err error
			if tx.rows != nil {
				err = tx.rows.addTag(ctx, tx, t, seq)
			} else {
				_, err = tx.exec(ctx, tagOneSQL, t, seq)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	_, err := tx.exec(ctx, tagMemorySQL, seq, tagsJSON)
	return err
}

// plainText reports whether s is valid UTF-8 without control characters,
// which a JSON string carries and SQLite decodes unchanged.
func plainText(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return false
		}
	}
	return true
}

func keyTaken(ctx context.Context, tx *Tx, m *recall.Memory) bool {
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM memories WHERE collection = ? AND key = ?`, m.Collection, m.Key).Scan(&id)
	return err == nil && id != m.ID
}

// writeMemory stores the new state of an existing memory as its next
// version.
func writeMemory(ctx context.Context, tx *Tx, m *recall.Memory, op string) error {
	if tx.rows != nil {
		// The update's triggers read and change the rows of this
		// memory's earlier writes, which must be there.
		if err := tx.rows.flush(ctx, tx); err != nil {
			return err
		}
	}
	if err := checkPinTitle(ctx, tx, m); err != nil {
		return err
	}
	m.Version++
	m.UpdatedAt = tx.now
	var args [memoryRowArgs]any
	res, err := tx.exec(ctx, updateMemorySQL, append(appendMemoryArgs(args[:0], m), m.ID)...)
	if err != nil {
		if isConstraint(err) {
			return recall.Errorf(recall.ECONFLICT, "Key %q is already used in collection %q: choose another key.", m.Key, m.Collection)
		}
		return fmt.Errorf("update memory: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return recall.Errorf(recall.ENOTFOUND, "Memory %s not found: run `recall list` to see ids.", m.ID)
	}
	if err := saveNextVersion(ctx, tx, m, op, true); err != nil {
		return err
	}
	return embedOrQueue(ctx, tx, m, 0, false)
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func findMemoryBy(ctx context.Context, q querier, cond string, args ...any) (*recall.Memory, error) {
	m, err := scanMemory(q.QueryRowContext(ctx, `SELECT `+memoryColumns+` FROM memories m WHERE `+cond, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, recall.Errorf(recall.ENOTFOUND, "Memory not found: run `recall list` or `recall search` to find its id or key.")
	}
	return m, err
}

// FindMemory returns the memory whose id, or key, is ref.
func (s *MemoryService) FindMemory(ctx context.Context, ref, collection string) (*recall.Memory, error) {
	return findMemoryRef(ctx, s.db.read, ref, collection)
}

func findMemoryRef(ctx context.Context, q querier, ref, collection string) (*recall.Memory, error) {
	if recall.IsID(ref) {
		m, err := findMemoryBy(ctx, q, "m.id = ?", ref)
		if err != nil {
			return nil, recall.Errorf(recall.ENOTFOUND, "No memory with id %s: run `recall list` to see ids (a deleted memory keeps its history: `recall versions %s`).", ref, ref)
		}
		if collection != "" && m.Collection != collection {
			return nil, recall.Errorf(recall.ENOTFOUND, "Memory %s is in collection %q, not %q.", ref, m.Collection, collection)
		}
		return m, nil
	}
	if err := recall.ValidateKey(ref); err != nil {
		return nil, recall.Errorf(recall.EINVALID, "%q is neither a memory id (tr + 10 hex digits) nor a valid key: run `recall list` to see ids and keys.", ref)
	}
	if collection != "" {
		m, err := findMemoryBy(ctx, q, "m.collection = ? AND m.key = ?", collection, ref)
		if err != nil {
			return nil, recall.Errorf(recall.ENOTFOUND, "No memory with key %q in collection %q: run `recall list --collection %s` to see keys.", ref, collection, collection)
		}
		return m, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT `+memoryColumns+` FROM memories m WHERE m.key = ? ORDER BY m.collection LIMIT 10`, ref)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []*recall.Memory
	for rows.Next() {
		m, err := scanMemory(rows)
		if err != nil {
			return nil, err
		}
		found = append(found, m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	switch len(found) {
	case 0:
		return nil, recall.Errorf(recall.ENOTFOUND, "No memory with key %q: run `recall list` to see keys, or `recall search %s`.", ref, ref)
	case 1:
		return found[0], nil
	}
	var cols []string
	for _, m := range found {
		cols = append(cols, m.Collection)
	}
	return nil, recall.Errorf(recall.ECONFLICT, "Key %q exists in several collections (%s): pass --collection to choose one.", ref, strings.Join(cols, ", "))
}

// FindMemories returns the memories matching filter.
func (s *MemoryService) FindMemories(ctx context.Context, f recall.MemoryFilter) ([]*recall.Memory, int, error) {
	where, args, err := whereMemories(f)
	if err != nil {
		return nil, 0, err
	}
	query, pargs := pageOfMemories(f, where, args)
	rows, err := s.db.readQuery(ctx, query, pargs...)
	if err != nil {
		return nil, 0, fmt.Errorf("find memories: %w", err)
	}
	out, err := collect(rows, scanMemory)
	if err != nil {
		return nil, 0, err
	}
	// A first page that holds every match is its own count.
	if allMatches(f) || (f.Offset == 0 && len(out) < f.Limit) {
		return out, len(out), nil
	}
	var total int
	if err := s.db.readQueryRow(ctx, `SELECT COUNT(*) FROM memories m WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count memories: %w", err)
	}
	return out, total, nil
}

// pageOfMemories is the query for one page of the memories matching
// where, in the filter's order.
func pageOfMemories(f recall.MemoryFilter, where string, args []any) (string, []any) {
	order := "m.updated_at DESC, m.seq DESC"
	if f.Newest {
		order = "m.occurred_at DESC, m.seq DESC"
	}
	query := `SELECT ` + memoryColumns + ` FROM memories m WHERE ` + where + ` ORDER BY ` + order
	if allMatches(f) {
		// No LIMIT parameter: SQLite plans with the value bound to one,
		// so a statement with it is compiled again at every run.
		return query, args
	}
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	return query + ` LIMIT ? OFFSET ?`, append(args, limit, f.Offset)
}

// allMatches reports whether the filter's page is every memory matching
// it: the first page, with no limit or one no smaller than the ids asked
// for (the ranker loads its vector candidates by id this way).
func allMatches(f recall.MemoryFilter) bool {
	return f.Offset == 0 && (f.Limit <= 0 || (f.IDs != nil && f.Limit >= len(f.IDs)))
}

// UpdateMemory applies upd to the memory with this id.
func (s *MemoryService) UpdateMemory(ctx context.Context, id string, upd recall.MemoryUpdate) (*recall.Memory, error) {
	var out *recall.Memory
	err := s.db.update(ctx, func(tx *Tx) error {
		m, err := findMemoryRef(ctx, tx, id, "")
		if err != nil {
			return err
		}
		before := *m
		if err := s.db.apply(m, upd); err != nil {
			return err
		}
		if recall.SameMemory(&before, m) {
			out = &before // nothing changed: no new version
			return nil
		}
		if err := writeMemory(ctx, tx, m, "update"); err != nil {
			return err
		}
		out = m
		return nil
	})
	return out, err
}

// DeleteMemory removes a memory and records the deletion as its last
// version, so the history stays restorable.
func (s *MemoryService) DeleteMemory(ctx context.Context, id string) error {
	return s.db.update(ctx, func(tx *Tx) error {
		m, err := findMemoryRef(ctx, tx, id, "")
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM memories WHERE id = ?`, m.ID); err != nil {
			return fmt.Errorf("delete memory: %w", err)
		}
		m.Version++
		m.UpdatedAt = tx.now
		return saveNextVersion(ctx, tx, m, "delete", false)
	})
}

// checkPinTitle refuses a second pinned memory with the same title: pins
// are core memory and are deduplicated by title (seed 001).
func checkPinTitle(ctx context.Context, tx *Tx, m *recall.Memory) error {
	if !m.Pinned || m.Title == "" {
		return nil
	}
	var other string
	err := tx.QueryRowContext(ctx, `SELECT id FROM memories WHERE pinned = 1 AND title = ? COLLATE NOCASE AND id != ? LIMIT 1`, m.Title, m.ID).Scan(&other)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	} else if err != nil {
		return err
	}
	return recall.Errorf(recall.ECONFLICT, "A memory titled %q is already pinned (%s): update that one or choose another title.", m.Title, other)
}
