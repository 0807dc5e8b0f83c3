package sqlite_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

func TestForgetService_Purge_Memories(t *testing.T) {
	ctx := context.Background()
	fixture := func(t *testing.T) (*sqlite.DB, map[string]string) {
		db := MustOpenDB(t)
		mem := sqlite.NewMemoryService(db)
		ids := map[string]string{}
		for _, m := range []*recall.Memory{
			{Key: "deploy", Type: "decision", Project: "web", Content: "Deploys go through staging."},
			{Key: "creds", Type: "note", Project: "web", Content: "The staging password is hunter2."},
			{Key: "editor", Type: "preference", Content: "Neovim with tabs."},
			{Key: "gone", Type: "note", Project: "old-app", Content: "An old note about hunter2."},
		} {
			res, err := mem.PutMemory(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			ids[m.Key] = res.Memory.ID
		}
		clean := "The staging password lives in the vault."
		if _, err := mem.UpdateMemory(ctx, ids["creds"], recall.MemoryUpdate{Content: &clean}); err != nil {
			t.Fatal(err)
		}
		if err := mem.DeleteMemory(ctx, ids["gone"]); err != nil {
			t.Fatal(err)
		}
		return db, ids
	}
	versions := func(t *testing.T, db *sqlite.DB, id string) int {
		vs, err := sqlite.NewMemoryService(db).MemoryVersions(ctx, id)
		if recall.ErrorCode(err) == recall.ENOTFOUND {
			return 0
		} else if err != nil {
			t.Fatal(err)
		}
		return len(vs)
	}

	t.Run("ByID", func(t *testing.T) {
		db, ids := fixture(t)
		rep, err := sqlite.NewForgetService(db).Purge(ctx, recall.PurgeCriteria{MemoryID: ids["creds"], Memories: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Memories != 1 || rep.Versions != 2 || versions(t, db, ids["creds"]) != 0 {
			t.Fatalf("report %+v", rep)
		}
		if versions(t, db, ids["deploy"]) != 1 {
			t.Fatal("another memory's history was touched")
		}
	})
	t.Run("DeletedMemoryByID", func(t *testing.T) {
		db, ids := fixture(t)
		rep, err := sqlite.NewForgetService(db).Purge(ctx, recall.PurgeCriteria{MemoryID: ids["gone"], Memories: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Memories != 1 || rep.Versions != 2 || versions(t, db, ids["gone"]) != 0 {
			t.Fatalf("report %+v", rep)
		}
	})
	t.Run("SearchReachesHistory", func(t *testing.T) {
		db, ids := fixture(t)
		svc := sqlite.NewForgetService(db)
		plan, err := svc.PlanPurge(ctx, recall.PurgeCriteria{Search: "hunter2", Memories: true}, 10)
		if err != nil {
			t.Fatal(err)
		}
		// creds holds it only in version 1; gone only in its history.
		if plan.Memories != 2 || len(plan.Sample) != 2 {
			t.Fatalf("plan %+v", plan)
		}
		if _, err := svc.Purge(ctx, recall.PurgeCriteria{Search: "hunter2", Memories: true}); err != nil {
			t.Fatal(err)
		}
		if versions(t, db, ids["creds"]) != 0 || versions(t, db, ids["gone"]) != 0 || versions(t, db, ids["deploy"]) != 1 {
			t.Fatal("wrong memories purged")
		}
	})
	t.Run("ProjectAndType", func(t *testing.T) {
		db, ids := fixture(t)
		rep, err := sqlite.NewForgetService(db).Purge(ctx, recall.PurgeCriteria{Project: "web", Type: "decision", Memories: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Memories != 1 || versions(t, db, ids["deploy"]) != 0 || versions(t, db, ids["creds"]) != 2 {
			t.Fatalf("report %+v", rep)
		}
	})
	t.Run("DeletedByProject", func(t *testing.T) {
		db, ids := fixture(t)
		rep, err := sqlite.NewForgetService(db).Purge(ctx, recall.PurgeCriteria{Project: "old-app", Memories: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Memories != 1 || versions(t, db, ids["gone"]) != 0 {
			t.Fatalf("report %+v", rep)
		}
	})
	t.Run("ObservationsUntouched", func(t *testing.T) {
		db, _ := fixture(t)
		seedObservations(t, db, &recall.Observation{Type: "note", Project: "web", Content: "hunter2 seen"})
		if _, err := sqlite.NewForgetService(db).Purge(ctx, recall.PurgeCriteria{Project: "web", Memories: true}); err != nil {
			t.Fatal(err)
		}
		if countObservations(t, db, recall.ObservationFilter{}) != 1 {
			t.Fatal("a memory purge removed observations")
		}
	})
}

func TestForgetService_Purge_Sessions(t *testing.T) {
	ctx := context.Background()
	fixture := func(t *testing.T) *sqlite.DB {
		db := purgeFixture(t)
		execSQL(t, db, `INSERT INTO sessions (id, project, started_at, summary) VALUES
			('s1', 'old-app', 0, 'ported the parser'), ('s2', 'web', 0, ''), ('s3', 'web', 0, 'read docs'), ('s9', 'old-app', 0, 'no observations')`)
		return db
	}
	for _, tt := range []struct {
		name string
		c    recall.PurgeCriteria
		gone []string
		kept []string
	}{
		// --session and --project cascade to the session rows, summaries included.
		{"Session", recall.PurgeCriteria{Session: "s1"}, []string{"s1"}, []string{"s2", "s3", "s9"}},
		{"Project", recall.PurgeCriteria{Project: "old-app"}, []string{"s1", "s9"}, []string{"s2", "s3"}},
		// Other filters drop only sessions left empty with nothing of their own.
		{"TypeLeavesSummaries", recall.PurgeCriteria{Type: "file_read", Project: "web"}, nil, []string{"s1", "s2", "s3", "s9"}},
		{"EmptyShellDropped", recall.PurgeCriteria{Project: "web", Search: "deploy"}, []string{"s2"}, []string{"s1", "s3", "s9"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := fixture(t)
			if _, err := sqlite.NewForgetService(db).Purge(ctx, tt.c); err != nil {
				t.Fatal(err)
			}
			left := querySessions(t, db)
			for _, id := range tt.gone {
				if left[id] {
					t.Errorf("session %s kept", id)
				}
			}
			for _, id := range tt.kept {
				if !left[id] {
					t.Errorf("session %s dropped", id)
				}
			}
		})
	}
}

func TestObservationService_PinObservation(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	seedObservations(t, db, &recall.Observation{At: day(-400), Type: "file_read", Content: "the first read of the new project"})
	obs := sqlite.NewObservationService(db)
	if err := obs.PinObservation(ctx, 1, true); err != nil {
		t.Fatal(err)
	}
	rep, err := sqlite.NewForgetService(db).Sweep(ctx, recall.RetentionPolicy{Enabled: true, Days: map[string]int{"file_read": 90}}, day(0), false)
	if err != nil || rep.Deleted != 0 {
		t.Fatalf("pinned observation swept: %+v, %v", rep, err)
	}
	if err := obs.PinObservation(ctx, 1, false); err != nil {
		t.Fatal(err)
	}
	if rep, err = sqlite.NewForgetService(db).Sweep(ctx, recall.RetentionPolicy{Enabled: true, Days: map[string]int{"file_read": 90}}, day(0), false); err != nil || rep.Deleted != 1 {
		t.Fatalf("unpinned observation kept: %+v, %v", rep, err)
	}
	if err := obs.PinObservation(ctx, 99, true); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("err = %v, want ENOTFOUND", err)
	}
}
