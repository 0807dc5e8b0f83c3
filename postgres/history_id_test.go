package postgres

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
)

// deletedMemory puts "deleted later" and deletes it, returning its id.
func deletedMemory(t *testing.T, s *MemoryService) string {
	t.Helper()
	ctx := context.Background()
	put, err := s.PutMemory(ctx, &recall.Memory{Content: "deleted later"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteMemory(ctx, put.Memory.ID); err != nil {
		t.Fatal(err)
	}
	return put.Memory.ID
}

// A put whose drawn id names a deleted memory's history draws again: the
// history stays as it was. Before, the put failed on the version row's
// key.
func TestPutMemory_DrawnIDOfDeletedMemory(t *testing.T) {
	ctx := context.Background()
	db, _ := traced(t)
	s := NewMemoryService(db)
	gone := deletedMemory(t, s)
	drawFirst(t, gone)
	res, err := s.PutMemory(ctx, &recall.Memory{Content: "a second memory"})
	if err != nil || res.Memory.ID == gone {
		t.Fatalf("put whose drawn id names a deleted memory: %+v, %v", res, err)
	}
	vs, err := s.MemoryVersions(ctx, gone)
	if err != nil || len(vs) != 2 || vs[0].Memory.Content != "deleted later" || vs[1].Op != "delete" {
		t.Fatalf("history of the deleted memory: %d versions (%v), want its put and its deletion", len(vs), err)
	}
	if vs, err := s.MemoryVersions(ctx, res.Memory.ID); err != nil || len(vs) != 1 || vs[0].Memory.Content != "a second memory" {
		t.Fatalf("history of the new memory: %d versions (%v)", len(vs), err)
	}
	// Ten draws that all name the history give up, writing nothing.
	newID = func() string { return gone }
	if _, err := s.PutMemory(ctx, &recall.Memory{Content: "never stored"}); recall.ErrorCode(err) != recall.ECONFLICT {
		t.Fatalf("ten draws with a history: %v, want ECONFLICT", err)
	}
	if vs, err := s.MemoryVersions(ctx, gone); err != nil || len(vs) != 2 {
		t.Fatalf("history after ten draws: %d versions (%v)", len(vs), err)
	}
}

// An update of a memory whose history is ahead of its live row (an older
// recall's overwrite left it so) writes after the history's last version.
func TestUpdateMemory_HistoryPastTheLiveRow(t *testing.T) {
	ctx := context.Background()
	db, _ := traced(t)
	s := NewMemoryService(db)
	put, err := s.PutMemory(ctx, &recall.Memory{Content: "live at version 1"})
	if err != nil {
		t.Fatal(err)
	}
	id := put.Memory.ID
	if _, err := db.pool.Exec(ctx, `INSERT INTO memory_versions (namespace, memory_id, version, op, changed_at, snapshot)
		VALUES ($1, $2, 2, 'delete', now(), '{"content": "an older memory"}')`, db.Namespace, id); err != nil {
		t.Fatal(err)
	}
	m, err := s.UpdateMemory(ctx, id, recall.MemoryUpdate{Content: &[]string{"updated"}[0]})
	if err != nil || m.Version != 3 {
		t.Fatalf("update: %+v, %v; want version 3", m, err)
	}
	if err := s.DeleteMemory(ctx, id); err != nil {
		t.Fatal(err)
	}
	vs, err := s.MemoryVersions(ctx, id)
	if err != nil || len(vs) != 4 || vs[1].Memory.Content != "an older memory" || vs[2].Op != "update" || vs[3].Version != 4 || vs[3].Op != "delete" {
		t.Fatalf("history: %d versions (%v)", len(vs), err)
	}
}
