package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"github.com/recall-mem/recall"
)

// insertVersionSQL writes a version row unless its (memory_id, version)
// is taken. No write replaces a version row: a deleted memory keeps its
// history, and an insert whose version is taken is moved past it
// (saveNextVersion) or, for an id drawn at random, given another id
// (insertMemory). A store copy, which mirrors the source's rows, writes
// them with copyVersionSQL.
const insertVersionSQL = `INSERT OR IGNORE INTO memory_versions (memory_id, version, op, changed_at, snapshot, content) VALUES (?, ?, ?, ?, ?, ?)`

// versionSnapshotSQL is the whole JSON snapshot of the version row aliased
// v, as it was recorded. A row keeps its content NULL while the live
// memory has the same text (migration 0015), so the text is read from
// there, and its snapshot empty while the live row holds that very state
// (migration 0020), rebuilt from the row by the view memory_snapshots. A row
// written by an older recall on a migrated store (during an upgrade) has
// its text in the snapshot and no content: when the memory is gone that
// text is used. The empty object and text stand in for a memory found in
// none of these places, which a sound store never has (Orphans counts
// them).
const versionSnapshotSQL = `json_set(CASE WHEN v.snapshot = '' THEN COALESCE((SELECT s.snapshot FROM memory_snapshots s
	WHERE s.memory_id = v.memory_id), '{}') ELSE v.snapshot END,
	'$.content', COALESCE(v.content, (SELECT m.content FROM memories m WHERE m.id = v.memory_id),
	json_extract(NULLIF(v.snapshot, ''), '$.content'), ''))`

// snapshotJSON is a memory as a version row stores it: without its
// content, which has a column of its own. The shallower Content field
// hides the memory's, and omitempty leaves it out.
type snapshotJSON struct {
	*recall.Memory
	Content string `json:"content,omitempty"`
}

// saveVersion records m's current state as version m.Version with a
// statement of its own and reports whether that version was taken
// already, in which case it wrote nothing. The memory row has just been
// written from m, so the version shares its text, and its whole state
// when the row rebuilds to the same snapshot; live is false when it has
// not (a deletion), and both are copied.
func saveVersion(ctx context.Context, tx *Tx, m *recall.Memory, op string, live bool) (taken bool, err error) {
	stored, content, err := versionSnapshot(m, live)
	if err != nil {
		return false, err
	}
	res, err := tx.exec(ctx, insertVersionSQL, m.ID, m.Version, op, ms(tx.now), stored, content)
	var n int64
	if err == nil {
		n, err = res.RowsAffected()
	}
	if err != nil {
		return false, fmt.Errorf("save version: %w", err)
	}
	return n == 0, nil
}

// saveNextVersion records m's current state as its next version: version
// m.Version, or when the memory's history already has that one, the one
// after its last, to which the live row (live) moves as well. The history
// has a later version than the live row only when the id was a deleted
// memory's, given again (an import keeping ids, a put naming it), or in a
// store whose history an older recall overwrote that way.
func saveNextVersion(ctx context.Context, tx *Tx, m *recall.Memory, op string, live bool) error {
	for range 2 { // after the history's last, a version is free
		taken, err := saveVersion(ctx, tx, m, op, live)
		if err != nil || !taken {
			return err
		}
		last, err := lastVersion(ctx, tx, m.ID)
		if err != nil {
			return err
		}
		m.Version = max(m.Version, last+1)
		if live {
			if _, err := tx.exec(ctx, `UPDATE memories SET version = ? WHERE id = ?`, m.Version, m.ID); err != nil {
				return fmt.Errorf("save version: %w", err)
			}
		}
	}
	return fmt.Errorf("save version: version %d of %s is taken", m.Version, m.ID)
}

// lastVersion is the largest version in the history of the memory id, 0
// for none.
func lastVersion(ctx context.Context, tx *Tx, id string) (int, error) {
	var last int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM memory_versions WHERE memory_id = ?`, id).Scan(&last); err != nil {
		return 0, fmt.Errorf("last version: %w", err)
	}
	return last, nil
}

// lastVersionsOf asks, in one statement, for the last version of each id
// ms give that has a history, for insertMemory (tx.rows.lasts): a given
// id of a deleted memory continues it. Asked an id at a time, it was a
// tenth of an import keeping ids.
func lastVersionsOf(ctx context.Context, tx *Tx, ms []*recall.Memory) error {
	var ids []string
	for _, m := range ms {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	lasts := map[string]int{}
	if len(ids) > 0 {
		rows, err := tx.QueryContext(ctx, `SELECT memory_id, MAX(version) FROM memory_versions WHERE memory_id IN `+inList+` GROUP BY memory_id`, jsonList(ids))
		if err != nil {
			return fmt.Errorf("last versions: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var last int
			if err := rows.Scan(&id, &last); err != nil {
				return fmt.Errorf("last versions: %w", err)
			}
			lasts[id] = last
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("last versions: %w", err)
		}
	}
	tx.rows.lasts = lasts
	return nil
}

// bufferVersion holds the version row of the memory in just inserted for
// the import's next multi-row statement.
func bufferVersion(ctx context.Context, tx *Tx, in *pendingInsert) error {
	m := in.m
	stored, content, err := versionSnapshot(m, true)
	if err == nil {
		err = tx.rows.addVersion(ctx, tx, in, m.ID, m.Version, in.op, ms(tx.now), stored, content)
	}
	if err != nil {
		return fmt.Errorf("save version: %w", err)
	}
	return nil
}

// versionSnapshot is what a version row of m stores: its snapshot
// (sharedSnapshot when the live row rebuilds to it) and its content
// (nil while the live row holds it). A memory already in the form its row
// reads back as (rowIsCanonical, every write of an import or a put that
// stamps its own times) shares the row without encoding anything: two
// JSON encodings per write were a third of an import's allocations.
func versionSnapshot(m *recall.Memory, live bool) (string, any, error) {
	if live && rowIsCanonical(m) {
		return sharedSnapshot, nil, nil
	}
	snap, err := json.Marshal(snapshotJSON{Memory: m})
	if err != nil {
		return "", nil, fmt.Errorf("snapshot: %w", err)
	}
	if !live {
		return string(snap), m.Content, nil
	}
	if rowShares(m, snap) {
		return sharedSnapshot, nil, nil
	}
	return string(snap), nil, nil
}

// MemoryVersions lists every stored version of a memory, oldest first.
func (s *MemoryService) MemoryVersions(ctx context.Context, ref string) ([]*recall.MemoryVersion, error) {
	id, err := s.resolveHistoryID(ctx, ref)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.read.QueryContext(ctx, `SELECT v.version, v.op, v.changed_at, `+versionSnapshotSQL+` FROM memory_versions v WHERE v.memory_id = ? ORDER BY v.version`, id)
	if err != nil {
		return nil, fmt.Errorf("versions: %w", err)
	}
	defer rows.Close()
	var out []*recall.MemoryVersion
	for rows.Next() {
		v := &recall.MemoryVersion{MemoryID: id}
		var at int64
		var snap string
		if err := rows.Scan(&v.Version, &v.Op, &at, &snap); err != nil {
			return nil, err
		}
		v.ChangedAt = fromMS(at)
		if err := json.Unmarshal([]byte(snap), &v.Memory); err != nil {
			return nil, fmt.Errorf("decode version %d: %w", v.Version, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, recall.Errorf(recall.ENOTFOUND, "No history for %s: run `recall list` to see ids.", ref)
	}
	return out, nil
}

// resolveHistoryID accepts a live memory's id or key, or the id of a
// deleted memory whose history is still stored.
func (s *MemoryService) resolveHistoryID(ctx context.Context, ref string) (string, error) {
	m, err := findMemoryRef(ctx, s.db.read, ref, "")
	if err == nil {
		return m.ID, nil
	}
	if recall.IsID(ref) {
		return ref, nil
	}
	return "", err
}

// MemoryVersion returns the state of a memory at version n.
func (s *MemoryService) MemoryVersion(ctx context.Context, ref string, n int) (*recall.Memory, error) {
	vs, err := s.MemoryVersions(ctx, ref)
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

// RestoreMemory writes version n back as a new version.
func (s *MemoryService) RestoreMemory(ctx context.Context, ref string, n int) (*recall.Memory, error) {
	old, err := s.MemoryVersion(ctx, ref, n)
	if err != nil {
		return nil, err
	}
	if isDeletion(ctx, s, old.ID, n) {
		return nil, recall.Errorf(recall.EINVALID, "Version %d records the deletion; restore an earlier version.", n)
	}
	var out *recall.Memory
	err = s.db.update(ctx, func(tx *Tx) error {
		last, err := lastVersion(ctx, tx, old.ID)
		if err != nil {
			return err
		}
		m := *old
		m.Version = last
		cur, err := findMemoryBy(ctx, tx, "m.id = ?", old.ID)
		if err == nil {
			m.CreatedAt = cur.CreatedAt
			out = &m
			return writeMemory(ctx, tx, &m, "restore")
		}
		m.Version = last + 1
		m.UpdatedAt = tx.now
		out = &m
		return insertMemory(ctx, tx, &m, "restore")
	})
	return out, err
}

func isDeletion(ctx context.Context, s *MemoryService, id string, n int) bool {
	var op string
	err := s.db.read.QueryRowContext(ctx, `SELECT op FROM memory_versions WHERE memory_id = ? AND version = ?`, id, n).Scan(&op)
	return err == nil && op == "delete"
}

// ImportMemories writes every memory, ids preserved, in one transaction.
// It is cleaned (validated and redacted) a chunk of cleanChunk at a time
// on one core while the writer stores the chunk before on the other, as a
// streamed import is: cleaning the whole batch first, on every core,
// left the writer idle for that long (a tenth of a batch of 1,000).
func (s *MemoryService) ImportMemories(ctx context.Context, ms []*recall.Memory) (*recall.ImportResult, error) {
	return s.importChunked(ctx, func(yield func(*recall.Memory, error) bool) {
		for _, m := range ms {
			if !yield(m, nil) {
				return
			}
		}
	}, cleanChunk)
}

// cleanChunk is the chunk ImportMemories cleans at a time: small enough
// that the writer soon has its first, and under cleanAll's threshold for
// using every core (the writer has one).
const cleanChunk = 128

// importInto writes clean memories, ids preserved, counting them in res;
// first is the index of clean[0] in the whole import, to name a memory
// that fails.
func importInto(ctx context.Context, tx *Tx, clean []*recall.Memory, first int, res *recall.ImportResult) error {
	if tx.rows == nil {
		tx.rows = newPendingRows()
	}
	defer func() { tx.rows = nil }()
	if err := lastVersionsOf(ctx, tx, clean); err != nil {
		return err
	}
	for i, m := range clean {
		var prev *recall.Memory
		if m.ID != "" {
			p, err := findMemoryBy(ctx, tx, "m.id = ?", m.ID)
			if err != nil && recall.ErrorCode(err) != recall.ENOTFOUND {
				return err
			}
			prev = p
		}
		var err error
		if prev != nil {
			m.Version = prev.Version
			if m.CreatedAt.IsZero() {
				m.CreatedAt = prev.CreatedAt
			}
			fillDefaults(m, tx)
			if recall.SameMemory(prev, m) {
				res.Unchanged++ // nothing changed: no new version
				continue
			}
			err = writeMemory(ctx, tx, m, "import")
			res.Updated++
		} else {
			fillDefaults(m, tx)
			err = insertMemory(ctx, tx, m, "import")
			res.Added++
		}
		if err != nil {
			return recall.Errorf(recall.ErrorCode(err), "Memory %d (%s): %s Nothing was imported.", first+i+1, m.ID, recall.ErrorMessage(err))
		}
	}
	return tx.rows.flush(ctx, tx)
}

// cleanAll validates and redacts copies of ms, on every core for a large
// batch (redaction is a dozen regular expressions over each text), and
// names the first memory that fails; first is the index of ms[0] in the
// whole import.
func (db *DB) cleanAll(ms []*recall.Memory, first int) ([]*recall.Memory, error) {
	clean := make([]*recall.Memory, len(ms))
	errs := make([]error, len(ms))
	workers := 1
	if len(ms) >= 256 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(ms); i += workers {
				c := *ms[i]
				errs[i] = db.clean(&c)
				clean[i] = &c
			}
		}(w)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, recall.Errorf(recall.ErrorCode(err), "Memory %d (%s): %s Nothing was imported.", first+i+1, clean[i].ID, recall.ErrorMessage(err))
		}
	}
	return clean, nil
}

func fillDefaults(m *recall.Memory, tx *Tx) {
	if m.Tier == "" {
		m.Tier = recall.TierRegister
	}
	if m.Status == "" {
		m.Status = recall.StatusActive
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = tx.now
	}
	if m.OccurredAt.IsZero() {
		m.OccurredAt = m.CreatedAt
	}
}
