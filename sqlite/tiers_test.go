package sqlite_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

func TestTierService_ApplyTierChanges(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		db := MustOpenDB(t)
		ts, ms := sqlite.NewTierService(db), sqlite.NewMemoryService(db)
		pinned := true
		err := ts.ApplyTierChanges(ctx, recall.TierChanges{
			Insert:  []*recall.Memory{{ID: "tr0000000001", Content: "fact", Title: "fact", Tier: recall.TierWorking}},
			Records: []recall.SyncRecord{{ID: "tr0000000001", File: "CLAUDE.local.md", Text: "fact", Tier: recall.TierWorking}},
			Meta:    map[string]string{"k": "v"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := ts.ApplyTierChanges(ctx, recall.TierChanges{Op: "pin", Update: []recall.MemoryChange{{ID: "tr0000000001", Update: recall.MemoryUpdate{Pinned: &pinned}}}}); err != nil {
			t.Fatal(err)
		}
		m, err := ms.FindMemory(ctx, "tr0000000001", "")
		if err != nil || !m.Pinned || m.Version != 2 || m.Tier != recall.TierWorking {
			t.Fatalf("got %+v, %v", m, err)
		}
		vs, _ := ms.MemoryVersions(ctx, "tr0000000001")
		if len(vs) != 2 || vs[1].Op != "pin" {
			t.Errorf("versions %+v", vs)
		}
		recs, err := ts.SyncRecords(ctx)
		if err != nil || recs["tr0000000001"].File != "CLAUDE.local.md" {
			t.Errorf("records %+v, %v", recs, err)
		}
		if v, _ := ts.StoreMeta(ctx, "k"); v != "v" {
			t.Errorf("meta %q", v)
		}
		if err := ts.ApplyTierChanges(ctx, recall.TierChanges{Drop: []string{"tr0000000001"}}); err != nil {
			t.Fatal(err)
		}
		if recs, _ := ts.SyncRecords(ctx); len(recs) != 0 {
			t.Errorf("records left: %+v", recs)
		}
	})
	t.Run("AllOrNothing", func(t *testing.T) {
		db := MustOpenDB(t)
		ts, ms := sqlite.NewTierService(db), sqlite.NewMemoryService(db)
		err := ts.ApplyTierChanges(ctx, recall.TierChanges{
			Insert:  []*recall.Memory{{ID: "tr0000000001", Content: "fact"}},
			Update:  []recall.MemoryChange{{ID: "tr00000000ff", Update: recall.MemoryUpdate{}}},
			Records: []recall.SyncRecord{{ID: "tr0000000001", File: "a.md", Text: "fact", Tier: recall.TierRegister}},
		})
		if recall.ErrorCode(err) != recall.ENOTFOUND {
			t.Fatalf("want ENOTFOUND, got %v", err)
		}
		if _, n, _ := ms.FindMemories(ctx, recall.MemoryFilter{}); n != 0 {
			t.Errorf("%d memories written", n)
		}
		if recs, _ := ts.SyncRecords(ctx); len(recs) != 0 {
			t.Errorf("records written: %+v", recs)
		}
	})
	t.Run("ErrPinTitleTaken", func(t *testing.T) {
		db := MustOpenDB(t)
		ts := sqlite.NewTierService(db)
		pinned := true
		err := ts.ApplyTierChanges(ctx, recall.TierChanges{Insert: []*recall.Memory{
			{ID: "tr0000000001", Content: "x", Title: "Deploy rule", Pinned: true},
			{ID: "tr0000000002", Content: "y", Title: "deploy rule"},
		}})
		if err != nil {
			t.Fatal(err)
		}
		err = ts.ApplyTierChanges(ctx, recall.TierChanges{Update: []recall.MemoryChange{{ID: "tr0000000002", Update: recall.MemoryUpdate{Pinned: &pinned}}}})
		if recall.ErrorCode(err) != recall.ECONFLICT {
			t.Errorf("want ECONFLICT, got %v", err)
		}
	})
}

func TestTierService_AnchoredMemories(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	ms := sqlite.NewMemoryService(db)
	for _, m := range []*recall.Memory{
		{Content: "anchored", Anchors: []recall.Anchor{{Path: "a.go", Hash: "h"}}},
		{Content: "plain"},
		{Content: "archived", Status: recall.StatusArchived, Anchors: []recall.Anchor{{Path: "b.go", Hash: "h"}}},
	} {
		if _, err := ms.PutMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	got, err := sqlite.NewTierService(db).AnchoredMemories(ctx)
	if err != nil || len(got) != 1 || got[0].Content != "anchored" || got[0].Anchors[0].Path != "a.go" {
		t.Errorf("got %+v, %v", got, err)
	}
}
