package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// taggedMemories are n memories with an id each and tags of every kind
// tagMemory tells apart: plain, repeated, none, empty, and some that
// only json_each lists (control characters).
func taggedMemories(n int) []*recall.Memory {
	lists := [][]string{{"plain"}, {"a", "b", "a"}, nil, {}, {""}, {"tab\there"}, {"del\x7f", "ok"}, {"é", "🙂", "<b>"}}
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	ms := make([]*recall.Memory, n)
	for i := range ms {
		ms[i] = &recall.Memory{ID: fmt.Sprintf("tr%010x", i+1), Title: fmt.Sprintf("Memory %d", i), Content: fmt.Sprintf("content %d", i),
			Tags: lists[i%len(lists)], OccurredAt: base.Add(time.Duration(i) * time.Minute)}
	}
	return ms
}

// memoryTags is every row of memory_tags, by memory id.
func memoryTags(t *testing.T, db *DB) [][2]string {
	rows, err := db.read.Query(`SELECT m.id, t.tag FROM memory_tags t JOIN memories m ON m.seq = t.seq ORDER BY m.id, t.tag`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var r [2]string
		if err := rows.Scan(&r[0], &r[1]); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// sameRows reports where the rows of table after the import (got) first
// differ from those after the same memories written another way (want).
func sameRows[T comparable](t *testing.T, table, other string, got, want []T) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	i := 0
	for i < min(len(got), len(want)) && got[i] == want[i] {
		i++
	}
	t.Errorf("%s: %d rows after the import, %d after %s; first difference at row %d: %#v, want %#v",
		table, len(got), len(want), other, i, got[i:min(i+3, len(got))], want[i:min(i+3, len(want))])
}

// TestImportMemories_TagsAsPutOneByOne: an import, which lists its
// memories' tags pendingBatch at a time, leaves the same memory_tags as
// the same memories put one at a time, including a memory imported twice
// in one batch with other tags the second time (its update reads the
// first time's tags) and a batch that is not a multiple of pendingBatch.
func TestImportMemories_TagsAsPutOneByOne(t *testing.T) {
	ctx := context.Background()
	ms := taggedMemories(2*pendingBatch + 7)
	// Plain tags, still pending when it comes again in the same chunk.
	again := *ms[pendingBatch+1]
	again.Tags = []string{"second", "time"}
	ms = append(ms[:pendingBatch+3], append([]*recall.Memory{&again}, ms[pendingBatch+3:]...)...)

	imported, put := openDB(t), openDB(t)
	if _, err := NewMemoryService(imported).ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		c := *m
		if _, err := NewMemoryService(put).PutMemory(ctx, &c); err != nil {
			t.Fatal(err)
		}
	}
	got, want := memoryTags(t, imported), memoryTags(t, put)
	sameRows(t, "memory_tags", "puts one by one", got, want)
	if len(want) == 0 {
		t.Fatal("no tags listed")
	}
}

// TestImportInto_TagsInMultiRowStatements: a batch of memories with one
// plain tag each lists them with one statement per pendingBatch, not one
// per memory, nor the version rows: three statements a memory (row,
// full-text row, queue), not five.
func TestImportInto_TagsInMultiRowStatements(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	const n = 2 * pendingBatch
	ms := make([]*recall.Memory, n)
	for i := range ms {
		ms[i] = &recall.Memory{Title: fmt.Sprintf("Memory %d", i), Content: "content", Tags: []string{fmt.Sprintf("t%d", i%5)}}
	}
	clean, err := db.cleanAll(ms, 0)
	if err != nil {
		t.Fatal(err)
	}
	var execs int
	err = db.update(ctx, func(tx *Tx) error {
		err := importInto(ctx, tx, clean, 0, &recall.ImportResult{})
		execs = tx.execs
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := 3*n + 2*n/pendingBatch; execs != want {
		t.Errorf("%d statements for %d memories, want %d", execs, n, want)
	}
	var tagged int
	if err := db.read.QueryRow(`SELECT count(*) FROM memory_tags`).Scan(&tagged); err != nil || tagged != n {
		t.Errorf("%d tag rows (%v), want %d", tagged, err, n)
	}
}

// versionRowsOf is every row of memory_versions in seq order, but for
// changed_at, which each transaction stamps, and a deletion's snapshot,
// which has the times of its deletion.
func versionRowsOf(t *testing.T, db *DB) []string {
	rows, err := db.read.Query(`SELECT seq, memory_id, version, op, iif(op = 'delete', '', snapshot), quote(content) FROM memory_versions ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var seq, version int64
		var id, op, snap, content string
		if err := rows.Scan(&seq, &id, &version, &op, &snap, &content); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d %s v%d %s %q %s", seq, id, version, op, snap, content))
	}
	return out
}

// TestImportMemories_VersionsAsOneByOne: an import, which writes its
// version rows pendingBatch at a time, leaves the same memory_versions
// rows, seqs included, as the same memories imported one per
// transaction (each row by a statement of its own). The import updates
// a memory it has just inserted, whose version row is still pending, and
// takes again the ids of two deleted memories whose history is kept:
// the multi-row statement leaves their version 1 out (taken), and they
// are inserted again as version 3, after the deletion, the history kept.
// Those are written after their batch, so the rows are compared by id and
// version, not by seq. A memory that is not canonical keeps its own
// snapshot.
func TestImportMemories_VersionsAsOneByOne(t *testing.T) {
	ctx := context.Background()
	ms := taggedMemories(2*pendingBatch + 7)
	again := *ms[5]
	again.Content = "changed"
	ms = append(ms[:pendingBatch-3], append([]*recall.Memory{&again}, ms[pendingBatch-3:]...)...)
	ms[9].Metadata = json.RawMessage(`{"b": 1,  "a": [1, 2]}`)
	ms[10].OccurredAt = time.Date(2024, 1, 1, 0, 0, 0, 123456789, time.FixedZone("X", 3600))
	gone := []string{ms[20].ID, ms[pendingBatch+30].ID}
	for _, m := range ms {
		// Stamped times of their own: the update copies the earlier
		// version's whole state into its row.
		m.CreatedAt, m.UpdatedAt = m.OccurredAt, m.OccurredAt
	}

	imported, oneByOne := openDB(t), openDB(t)
	for _, db := range []*DB{imported, oneByOne} {
		svc := NewMemoryService(db)
		for _, id := range gone {
			at := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
			if _, err := svc.PutMemory(ctx, &recall.Memory{ID: id, Title: "Earlier", Content: "earlier " + id, CreatedAt: at, UpdatedAt: at}); err != nil {
				t.Fatal(err)
			}
			if err := svc.DeleteMemory(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	copies := func() []*recall.Memory {
		out := make([]*recall.Memory, len(ms))
		for i, m := range ms {
			c := *m
			out[i] = &c
		}
		return out
	}
	if _, err := NewMemoryService(imported).ImportMemories(ctx, copies()); err != nil {
		t.Fatal(err)
	}
	for _, m := range copies() {
		if _, err := NewMemoryService(oneByOne).ImportMemories(ctx, []*recall.Memory{m}); err != nil {
			t.Fatal(err)
		}
	}
	got, want := versionRowsOf(t, imported), versionRowsOf(t, oneByOne)
	byKey := func(rows []string) []string {
		out := make([]string, len(rows))
		for i, r := range rows {
			_, out[i], _ = strings.Cut(r, " ") // without the seq
		}
		slices.Sort(out)
		return out
	}
	sameRows(t, "memory_versions", "imports one by one", byKey(got), byKey(want))
	// Each deleted memory keeps its history, which the import continues
	// as version 3.
	if len(want) != len(ms)+2*len(gone) {
		t.Errorf("%d version rows, want %d", len(want), len(ms)+2*len(gone))
	}
	for _, id := range gone {
		var ops string
		if err := imported.read.QueryRow(`SELECT group_concat(version || ' ' || op, ', ') FROM (SELECT version, op FROM memory_versions WHERE memory_id = ? ORDER BY version)`, id).Scan(&ops); err != nil || ops != "1 put, 2 delete, 3 import" {
			t.Errorf("history of %s: %q (%v), want 1 put, 2 delete, 3 import", id, ops, err)
		}
	}
}

// TestRowBuffer_UndoShort: when the versions' multi-row statement
// ignores a row (its version is taken), the rows it inserted are taken
// back and all are written one at a time, which names the row left out
// (the history's row stays as it was); when it ignores none, that one
// statement is all.
func TestRowBuffer_UndoShort(t *testing.T) {
	ctx := context.Background()
	for _, taken := range []bool{false, true} {
		db := openDB(t)
		if taken {
			if _, err := db.write.Exec(`INSERT INTO memory_versions (memory_id, version, op, changed_at, snapshot) VALUES ('mem_x', 1, 'create', 1, '{"title":"old"}')`); err != nil {
				t.Fatal(err)
			}
		}
		var execs int
		var left []int
		err := db.update(ctx, func(tx *Tx) error {
			b := newPendingRows().versions
			for i := range pendingBatch {
				id := fmt.Sprintf("mem_%d", i)
				if i == 7 {
					id = "mem_x"
				}
				if full := b.add(id, 1, "import", 2, "", nil); full != (i == pendingBatch-1) {
					t.Fatalf("row %d: full %v", i, full)
				}
			}
			var err error
			left, err = b.flush(ctx, tx)
			execs = tx.execs
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if taken {
			want = 2 + pendingBatch
		}
		if execs != want {
			t.Errorf("taken %v: %d statements, want %d", taken, execs, want)
		}
		var n, seqs int
		var snap string
		if err := db.read.QueryRow(`SELECT count(*), max(seq) - min(seq) + 1 FROM memory_versions`).Scan(&n, &seqs); err != nil {
			t.Fatal(err)
		}
		if err := db.read.QueryRow(`SELECT snapshot FROM memory_versions WHERE memory_id = 'mem_x'`).Scan(&snap); err != nil {
			t.Fatal(err)
		}
		wantSnap, wantLeft := "", []int(nil)
		if taken {
			wantSnap, wantLeft = `{"title":"old"}`, []int{7}
		}
		if n != pendingBatch || snap != wantSnap || !slices.Equal(left, wantLeft) {
			t.Errorf("taken %v: %d rows, mem_x's snapshot %q, rows left out %v; want %d, %q, %v", taken, n, snap, left, pendingBatch, wantSnap, wantLeft)
		}
		if !taken && seqs != pendingBatch {
			t.Errorf("seqs span %d, want %d", seqs, pendingBatch)
		}
	}
}

// A history row at the largest seq SQLite allows (written by another
// program) makes SQLite give new rows free seqs at random, so the rows a
// multi-row insert appended are not the table's last: taking them back
// by range would delete that row, and older ones. The import fails
// instead, whole, and every row stays.
func TestRowBuffer_UndoShortAfterTheLargestSeq(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	if _, err := db.write.Exec(`INSERT INTO memory_versions (seq, memory_id, version, op, changed_at, snapshot) VALUES
		(9223372036854775807, 'mem_top', 1, 'create', 1, '{"title":"top"}'),
		(5, 'mem_x', 1, 'create', 1, '{"title":"old"}')`); err != nil {
		t.Fatal(err)
	}
	err := db.update(ctx, func(tx *Tx) error {
		b := newPendingRows().versions
		for i := range pendingBatch {
			id := fmt.Sprintf("mem_%d", i)
			if i == 0 {
				id = "mem_x" // taken: the statement leaves it out
			}
			b.add(id, 1, "import", 2, "", nil)
		}
		_, err := b.flush(ctx, tx)
		return err
	})
	if err == nil {
		t.Fatal("the batch was taken back by range past the largest seq")
	}
	var n int
	var top string
	if err := db.read.QueryRow(`SELECT count(*), (SELECT snapshot FROM memory_versions WHERE memory_id = 'mem_top') FROM memory_versions`).Scan(&n, &top); err != nil {
		t.Fatal(err)
	}
	if n != 2 || top != `{"title":"top"}` {
		t.Errorf("%d rows after the failed import, the top row's snapshot %q; want the 2 before", n, top)
	}
}

// versionMultiSQL is made from insertVersionSQL by replacing its verb: a
// rewording of that statement must not leave a multi-row REPLACE, which
// opens a savepoint (FTS5 flushes its pending terms at each).
func TestVersionMultiSQL_IsInsertOrIgnore(t *testing.T) {
	if !strings.HasPrefix(strings.TrimSpace(versionMultiSQL), "INSERT OR IGNORE INTO memory_versions") {
		t.Fatalf("versionMultiSQL begins %.60q", strings.TrimSpace(versionMultiSQL))
	}
}
