package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/recall-mem/recall"
)

// candidateColumns are the columns of a memory that the ranker reads of a
// search candidate (rank.Searcher's candidateLoader names the fields), in
// the order scanCandidate reads them. A hybrid search loads some 100
// vector candidates by id and shows ten: the other ten columns (key,
// context, related, priority, anchors, four times, version) were read and
// decoded for every one of them, and the rows sorted by updated_at, which
// the ranker does not keep.
const candidateColumns = `m.id, m.collection, m.type, m.title, m.content, m.tags, m.category, m.project,
	m.created_by, m.confidence, m.tier, m.pinned, m.status, m.metadata, m.occurred_at`

// FindCandidates loads the memories among f.IDs that pass f, with only the
// fields a search ranks by (ID, Collection, Type, Title, Content, Tags,
// Category, Project, CreatedBy, Confidence, Tier, Pinned, Status,
// Metadata, OccurredAt), each as FindMemories gives it, in no order; the
// other fields are zero. f.Limit and f.Offset are ignored.
//
// rows, when not nil, holds beside each id of f.IDs the memory's row as
// the vector search found it (recall.VectorHit.Row; 0 when unknown):
// those memories are read by row, a seek in the table alone instead of
// one in the id index first. A row is a hint: one that holds another
// memory by now (the memory deleted, its rowid taken by a new one) gives
// nothing, as the id's load would give nothing for a deleted memory.
func (s *MemoryService) FindCandidates(ctx context.Context, f recall.MemoryFilter, rows []int64) ([]*recall.Memory, error) {
	if f.IDs == nil {
		return nil, recall.Errorf(recall.EINVALID, "Candidates are loaded by id: the filter names none.")
	}
	if rows != nil && len(rows) != len(f.IDs) {
		return nil, recall.Errorf(recall.EINVALID, "Candidates' rows are given one for each id: %d rows for %d ids.", len(rows), len(f.IDs))
	}
	ids := f.IDs
	f.IDs, f.Offset, f.Limit = nil, 0, 0
	where, args, err := whereMemories(f)
	if err != nil {
		return nil, err
	}
	var seqs []int64
	var byID []string
	var asked map[string]bool // the ids read by row
	for i, id := range ids {
		if rows == nil || rows[i] <= 0 {
			byID = append(byID, id)
			continue
		}
		if asked == nil {
			asked = make(map[string]bool, len(ids)-i)
		}
		seqs, asked[id] = append(seqs, rows[i]), true
	}
	var out []*recall.Memory
	if len(seqs) > 0 {
		ms, err := s.loadCandidates(ctx, `m.seq IN `+inList+` AND `+where, append([]any{jsonInts(seqs)}, args...))
		if err != nil {
			return nil, err
		}
		// The id is checked here rather than in SQL (an ephemeral index of
		// the ids built at every load): a row's memory, if it is among the
		// asked ones, is that id's current row, since ids are unique.
		out = slices.DeleteFunc(ms, func(m *recall.Memory) bool { return !asked[m.ID] })
	}
	if len(byID) > 0 {
		ms, err := s.loadCandidates(ctx, `m.id IN `+inList+` AND `+where, append([]any{jsonStrings(byID)}, args...))
		if err != nil {
			return nil, err
		}
		out = append(out, ms...)
	}
	return out, nil
}

// loadCandidates reads the candidate columns of the memories that pass
// where.
func (s *MemoryService) loadCandidates(ctx context.Context, where string, args []any) ([]*recall.Memory, error) {
	rows, err := s.db.readQuery(ctx, `SELECT `+candidateColumns+` FROM memories m WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("find candidates: %w", err)
	}
	return collect(rows, scanCandidate)
}

// candidateBesides are the columns of a candidate row not scanned
// straight into recall.Memory (see memoryColumnsBesides).
type candidateBesides struct {
	tags, meta string
	occurred   int64
}

// scanCandidate scans a row of candidateColumns as scanMemory scans those
// columns of a whole row.
func scanCandidate(row scanner) (*recall.Memory, error) {
	m, c := new(recall.Memory), new(candidateBesides)
	list := scanDests.Get().(*[]any)
	dest := append((*list)[:0], &m.ID, &m.Collection, &m.Type, &m.Title, &m.Content, &c.tags, &m.Category, &m.Project,
		&m.CreatedBy, &m.Confidence, &m.Tier, &m.Pinned, &m.Status, &c.meta, &c.occurred)
	err := row.Scan(dest...)
	clear(dest) // the pooled list must not keep this row's memory alive
	*list = dest[:0]
	scanDests.Put(list)
	if err != nil {
		return nil, err
	}
	if err := decodeStrings("tags", c.tags, &m.Tags); err != nil {
		return nil, err
	}
	m.Metadata = metadataOf(c.meta)
	m.OccurredAt = fromMS(c.occurred)
	return m, nil
}

// metadataOf is a metadata column as a memory holds it: none for an
// empty object.
func metadataOf(meta string) json.RawMessage {
	if meta != "" && meta != "{}" {
		return json.RawMessage(meta)
	}
	return nil
}
