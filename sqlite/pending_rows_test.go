package sqlite

import (
	"context"
	"fmt"
	"reflect"
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
	if !reflect.DeepEqual(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Errorf("memory_tags: %d rows after the import, %d after puts one by one; first difference at row %d: %q, want %q",
			len(got), len(want), i, got[i:min(i+3, len(got))], want[i:min(i+3, len(want))])
	}
	if len(want) == 0 {
		t.Fatal("no tags listed")
	}
}

// TestImportInto_TagsInMultiRowStatements: a batch of memories with one
// plain tag each lists them with one statement per pendingBatch, not one
// per memory: four statements a memory (row, full-text row, version,
// queue), not five.
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
	if want := 4*n + n/pendingBatch; execs != want {
		t.Errorf("%d statements for %d memories, want %d", execs, n, want)
	}
	var tagged int
	if err := db.read.QueryRow(`SELECT count(*) FROM memory_tags`).Scan(&tagged); err != nil || tagged != n {
		t.Errorf("%d tag rows (%v), want %d", tagged, err, n)
	}
}
