package sqlite_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

func TestForgetService_StoreStats(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	seedObservations(t, db,
		&recall.Observation{At: day(-100), Type: "file_read", Content: "old"},
		&recall.Observation{At: day(-10), Type: "file_read", Content: "new"},
		&recall.Observation{At: day(-1), Type: "command", Content: "new"},
	)
	if _, err := sqlite.NewMemoryService(db).PutMemory(ctx, &recall.Memory{Tier: recall.TierWorking, Content: "a working note"}); err != nil {
		t.Fatal(err)
	}
	svc := sqlite.NewForgetService(db)
	if _, err := svc.Purge(ctx, recall.PurgeCriteria{ObservationID: 1}); err != nil {
		t.Fatal(err)
	}
	// The store clock is 2026-01-02 03:04, so the memory is in the window.
	st, err := svc.StoreStats(ctx, day(1))
	if err != nil {
		t.Fatal(err)
	}
	if st.Observations != 2 || st.ObservationsByType["file_read"] != 1 || st.ObservationsByType["command"] != 1 {
		t.Errorf("observations = %d %v", st.Observations, st.ObservationsByType)
	}
	if st.Memories != 1 || st.MemoriesByTier[recall.TierWorking] != 1 || st.Versions != 1 {
		t.Errorf("memories = %d %v, versions %d", st.Memories, st.MemoriesByTier, st.Versions)
	}
	// Two observations and the memory were written after day(-30); the
	// memory and its first version both count as rows.
	if st.GrowthRows != 4 {
		t.Errorf("growth rows = %d, want 4", st.GrowthRows)
	}
	if st.DBBytes <= 0 || st.PageSize <= 0 || st.FreeBytes != st.FreePages*st.PageSize {
		t.Errorf("sizes = db %d, page %d, free %d pages %d bytes", st.DBBytes, st.PageSize, st.FreePages, st.FreeBytes)
	}
	if st.LastPurge == nil || st.LastSweep != nil {
		t.Errorf("last purge %v, last sweep %v", st.LastPurge, st.LastSweep)
	}
}
