package sqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

func TestForgetService_Sweep(t *testing.T) {
	ctx := context.Background()
	now := day(0)
	policy := recall.RetentionPolicy{Enabled: true, Days: map[string]int{"file_read": 90, "user_prompt": 730}, CompactedDays: 30}
	fixture := func(t *testing.T) (*sqlite.DB, *sqlite.ForgetService) {
		db := MustOpenDB(t)
		seedObservations(t, db,
			&recall.Observation{At: day(-100), Type: "file_read", Session: "old", Content: "expired read"},
			&recall.Observation{At: day(-80), Type: "file_read", Session: "s", Content: "recent read"},
			&recall.Observation{At: day(-800), Type: "user_prompt", Session: "s", Content: "expired prompt"},
			&recall.Observation{At: day(-700), Type: "user_prompt", Session: "s", Content: "kept prompt"},
			&recall.Observation{At: day(-900), Type: "agent_thinking", Session: "s", Content: "unknown type, never swept"},
			&recall.Observation{At: day(-100), Type: "file_read", Session: "s", Content: "landmark read", Pinned: true},
			&recall.Observation{At: day(-40), Type: "command", Session: "s", Status: recall.StatusCompacted, Content: "rolled up long ago"},
			&recall.Observation{At: day(-10), Type: "command", Session: "s", Status: recall.StatusCompacted, Content: "rolled up lately"},
		)
		return db, sqlite.NewForgetService(db)
	}
	contents := func(t *testing.T, db *sqlite.DB) map[string]bool {
		obs, _, err := sqlite.NewObservationService(db).FindObservations(ctx, recall.ObservationFilter{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, o := range obs {
			out[o.Content] = true
		}
		return out
	}

	t.Run("ExpiredDeleted", func(t *testing.T) {
		db, svc := fixture(t)
		rep, err := svc.Sweep(ctx, policy, now, false)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Deleted != 3 || rep.ByType["file_read"] != 1 || rep.ByType["user_prompt"] != 1 || rep.Compacted != 1 {
			t.Fatalf("report = %+v", rep)
		}
		left := contents(t, db)
		for _, gone := range []string{"expired read", "expired prompt", "rolled up long ago"} {
			if left[gone] {
				t.Errorf("%q survived", gone)
			}
		}
		if err := db.Check(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("UnexpiredKept", func(t *testing.T) {
		db, svc := fixture(t)
		if _, err := svc.Sweep(ctx, policy, now, false); err != nil {
			t.Fatal(err)
		}
		left := contents(t, db)
		for _, kept := range []string{"recent read", "kept prompt", "rolled up lately"} {
			if !left[kept] {
				t.Errorf("%q was swept", kept)
			}
		}
	})
	t.Run("UnknownTypeKept", func(t *testing.T) {
		db, svc := fixture(t)
		if _, err := svc.Sweep(ctx, policy, now, false); err != nil {
			t.Fatal(err)
		}
		if !contents(t, db)["unknown type, never swept"] {
			t.Error("a type without a retention period was swept")
		}
	})
	t.Run("PinnedKept", func(t *testing.T) {
		db, svc := fixture(t)
		if _, err := svc.Sweep(ctx, policy, now, false); err != nil {
			t.Fatal(err)
		}
		if !contents(t, db)["landmark read"] {
			t.Error("a landmark was swept")
		}
	})
	t.Run("Disabled", func(t *testing.T) {
		db, svc := fixture(t)
		off := policy
		off.Enabled, off.CompactedDays = false, 0
		rep, err := svc.Sweep(ctx, off, now, false)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Deleted != 0 || len(contents(t, db)) != 8 {
			t.Fatalf("disabled sweep deleted: %+v", rep)
		}
	})
	t.Run("DisabledStillSweepsCompacted", func(t *testing.T) {
		db, svc := fixture(t)
		off := policy
		off.Enabled = false
		rep, err := svc.Sweep(ctx, off, now, false)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Deleted != 1 || rep.Compacted != 1 || len(rep.ByType) != 0 || len(contents(t, db)) != 7 {
			t.Fatalf("report = %+v", rep)
		}
	})
	t.Run("DryRun", func(t *testing.T) {
		db, svc := fixture(t)
		rep, err := svc.Sweep(ctx, policy, now, true)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Deleted != 3 || len(contents(t, db)) != 8 {
			t.Fatalf("dry run: %+v, %d left", rep, len(contents(t, db)))
		}
	})
	t.Run("EmptySessionsDropped", func(t *testing.T) {
		db, svc := fixture(t)
		execSQL(t, db, `INSERT INTO sessions (id, started_at) VALUES ('old', 0), ('s', 0)`)
		seedObservations(t, db, &recall.Observation{At: day(-100), Type: "file_read", Session: "summarised", Content: "expired too"})
		execSQL(t, db, `INSERT INTO sessions (id, started_at, summary) VALUES ('summarised', 0, 'fixed the flaky test')`)
		rep, err := svc.Sweep(ctx, policy, now, false)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Sessions != 1 {
			t.Errorf("dropped %d sessions, want 1 (old)", rep.Sessions)
		}
		ids := querySessions(t, db)
		if ids["old"] || !ids["s"] || !ids["summarised"] {
			t.Errorf("sessions left: %v; want s (has observations) and summarised (has a summary)", ids)
		}
	})
	t.Run("RollupSourcesKept", func(t *testing.T) {
		db, svc := fixture(t)
		execSQL(t, db, `CREATE TABLE syntheses (id INTEGER PRIMARY KEY, source_obs_ids TEXT NOT NULL)`,
			`INSERT INTO syntheses (source_obs_ids) VALUES ('[1]')`)
		rep, err := svc.Sweep(ctx, policy, now, false)
		if err != nil {
			t.Fatal(err)
		}
		if rep.ByType["file_read"] != 0 || !contents(t, db)["expired read"] {
			t.Fatalf("a synthesis source was swept: %+v", rep)
		}
	})
}

// execSQL runs statements on the store, standing in for tables that other
// features add.
func execSQL(t *testing.T, db *sqlite.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if err := db.Exec(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
}

// TestForgetService_100k purges one observation from a store of 100,000
// (secure delete, FTS merge, VACUUM, checkpoint), then sweeps it, and
// reports both times; it is skipped with -short and under the race detector.
func TestForgetService_100k(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("100,000 observations: run without -short and without -race")
	}
	ctx := context.Background()
	db := MustOpenDB(t)
	const n = 100_000
	types := []string{"file_read", "command", "user_prompt", "search", "agent_thinking"}
	batch := make([]*recall.Observation, 0, 5000)
	for i := range n {
		batch = append(batch, &recall.Observation{At: day(-(i % 200)), Type: types[i%len(types)], Session: "s",
			Content: "observation about the build pipeline and its flaky tests number " + time.Duration(i).String()})
		if len(batch) == cap(batch) {
			seedObservations(t, db, batch...)
			batch = batch[:0]
		}
	}
	svc := sqlite.NewForgetService(db)
	before, err := svc.StoreStats(ctx, day(0))
	if err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	if rep, err := svc.Purge(ctx, recall.PurgeCriteria{ObservationID: 4242}); err != nil || rep.Observations != 1 {
		t.Fatalf("purge: %+v, %v", rep, err)
	}
	t.Logf("purge of 1 of %d observations (%d MiB store): %v", n, before.DBBytes>>20, time.Since(start).Round(time.Millisecond))

	start = time.Now()
	rep, err := svc.Sweep(ctx, recall.RetentionPolicy{Enabled: true, Days: map[string]int{"file_read": 90, "search": 90, "command": 180, "user_prompt": 730}}, day(0), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("sweep of %d observations: %d deleted in %v (by type %v, fts %s, freed %d pages)", n-1, rep.Deleted, time.Since(start).Round(time.Millisecond), rep.ByType, rep.Upkeep.FTS, rep.Upkeep.FreedPages)
	// Types cycle every 5 rows and ages every 200, so each type has 40
	// ages: file_read 21 of them past 90 days, search 22, command 4 past 180.
	if want := map[string]int{"file_read": 10_500, "search": 11_000, "command": 2_000}; rep.Deleted != 23_500 || len(rep.ByType) != 3 ||
		rep.ByType["file_read"] != want["file_read"] || rep.ByType["search"] != want["search"] || rep.ByType["command"] != want["command"] {
		t.Errorf("deleted %d %v, want 23500 %v", rep.Deleted, rep.ByType, want)
	}
}

func querySessions(t *testing.T, db *sqlite.DB) map[string]bool {
	t.Helper()
	ids, err := db.Strings(context.Background(), `SELECT id FROM sessions`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, id := range ids {
		out[id] = true
	}
	return out
}
