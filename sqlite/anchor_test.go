package sqlite_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// Anchors that leave the project are refused on write, but a memory stored
// with one before that rule can still be archived or reviewed.
func TestMemoryService_AnchorPaths(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	svc := sqlite.NewMemoryService(db)
	if _, err := svc.PutMemory(ctx, &recall.Memory{Content: "x", Anchors: []recall.Anchor{{Path: "../../etc/passwd", Hash: "h"}}}); recall.ErrorCode(err) != recall.EINVALID {
		t.Fatalf("put: err %v, want invalid", err)
	}
	res, err := svc.PutMemory(ctx, &recall.Memory{Content: "legacy", Anchors: []recall.Anchor{{Path: "a.go", Hash: "h"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(ctx, `UPDATE memories SET anchors = '[{"path":"../x","hash":"h"}]' WHERE id = ?`, res.Memory.ID); err != nil {
		t.Fatal(err)
	}
	archived := recall.StatusArchived
	if _, err := svc.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Status: &archived}); err != nil {
		t.Fatalf("archive of a legacy anchored memory: %v", err)
	}
	bad := []recall.Anchor{{Path: "/x", Hash: "h"}}
	if _, err := svc.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Anchors: &bad}); recall.ErrorCode(err) != recall.EINVALID {
		t.Fatalf("update to an absolute anchor: err %v, want invalid", err)
	}
}
