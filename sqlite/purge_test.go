package sqlite_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// seedObservations records observations; At defaults to the store clock.
func seedObservations(tb testing.TB, db *sqlite.DB, obs ...*recall.Observation) {
	tb.Helper()
	if err := sqlite.NewObservationService(db).RecordObservations(context.Background(), obs); err != nil {
		tb.Fatal(err)
	}
}

func countObservations(tb testing.TB, db *sqlite.DB, f recall.ObservationFilter) int {
	tb.Helper()
	_, n, err := sqlite.NewObservationService(db).FindObservations(context.Background(), f)
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

func day(n int) time.Time { return time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).AddDate(0, 0, n) }

func strp(s string) *string { return &s }

// purgeFixture is a store with two projects and three sessions.
func purgeFixture(tb testing.TB) *sqlite.DB {
	db := MustOpenDB(tb)
	seedObservations(tb, db,
		&recall.Observation{At: day(-100), Type: "file_read", Session: "s1", Project: "old-app", Content: "read main.go"},
		&recall.Observation{At: day(-90), Type: "command", Session: "s1", Project: "old-app", Content: "go test ./..."},
		&recall.Observation{At: day(-10), Type: "user_prompt", Session: "s2", Project: "web", Content: "deploy the canary"},
		&recall.Observation{At: day(-5), Type: "file_read", Session: "s2", Project: "web", Content: "read deploy.yaml with token sk-proj-abc123"},
		&recall.Observation{At: day(0), Type: "file_read", Session: "s3", Project: "web", Content: "read README.md"},
	)
	return db
}

func TestForgetService_Purge(t *testing.T) {
	ctx := context.Background()
	older := func(n int) *int { return &n }
	before := day(-50)
	for _, tt := range []struct {
		name string
		c    recall.PurgeCriteria
		want int // observations deleted
		left int
	}{
		{"Before", recall.PurgeCriteria{Before: &before}, 2, 3},
		{"Project", recall.PurgeCriteria{Project: "old-app"}, 2, 3},
		{"Session", recall.PurgeCriteria{Session: "s2"}, 2, 3},
		{"ID", recall.PurgeCriteria{ObservationID: 3}, 1, 4},
		{"TypeOlderThan", recall.PurgeCriteria{Type: "file_read", OlderThanDays: older(30)}, 1, 4},
		{"Type", recall.PurgeCriteria{Type: "file_read"}, 3, 2},
		{"Search", recall.PurgeCriteria{Search: "sk-proj"}, 1, 4},
		{"SearchNeedsEveryWord", recall.PurgeCriteria{Search: "read nothing-like-this"}, 0, 5},
		{"AND", recall.PurgeCriteria{Project: "web", Type: "file_read"}, 2, 3},
		{"NoMatch", recall.PurgeCriteria{Project: "nope"}, 0, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := purgeFixture(t)
			c := tt.c
			if c.OlderThanDays != nil {
				cut := day(*c.OlderThanDays * -1)
				c.Cutoff = &cut
			}
			svc := sqlite.NewForgetService(db)
			plan, err := svc.PlanPurge(ctx, c, 10)
			if err != nil {
				t.Fatal(err)
			}
			if plan.Observations != tt.want || len(plan.Sample) != tt.want {
				t.Fatalf("plan matched %d (sample %d), want %d", plan.Observations, len(plan.Sample), tt.want)
			}
			if got := countObservations(t, db, recall.ObservationFilter{}); got != 5 {
				t.Fatalf("dry run deleted: %d left", got)
			}
			rep, err := svc.Purge(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Observations != tt.want {
				t.Errorf("purged %d, want %d", rep.Observations, tt.want)
			}
			if got := countObservations(t, db, recall.ObservationFilter{}); got != tt.left {
				t.Errorf("%d left, want %d", got, tt.left)
			}
			if tt.want > 0 && (rep.Upkeep == nil || !rep.Upkeep.SecureDelete || rep.Upkeep.FTS != "optimize" || !rep.Upkeep.WALTruncated) {
				t.Errorf("upkeep = %+v", rep.Upkeep)
			}
		})
	}

	t.Run("NoFilter", func(t *testing.T) {
		db := purgeFixture(t)
		_, err := sqlite.NewForgetService(db).Purge(ctx, recall.PurgeCriteria{})
		if recall.ErrorCode(err) != recall.EINVALID {
			t.Fatalf("err = %v, want EINVALID", err)
		}
		if got := countObservations(t, db, recall.ObservationFilter{}); got != 5 {
			t.Fatalf("%d left", got)
		}
	})

	t.Run("RestoresTheWriter", func(t *testing.T) {
		db := purgeFixture(t)
		svc := sqlite.NewForgetService(db)
		if _, err := svc.Purge(ctx, recall.PurgeCriteria{Project: "web"}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Sweep(ctx, recall.RetentionPolicy{Enabled: true, Days: map[string]int{"command": 1}}, day(0), false); err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]int{"secure_delete": 0, "busy_timeout": 10_000} {
			if got, err := db.WriterPragma(ctx, name); err != nil || got != want {
				t.Errorf("after purge and sweep %s = %d (%v), want %d", name, got, err, want)
			}
		}
	})

	t.Run("FTSInSync", func(t *testing.T) {
		db := purgeFixture(t)
		if _, err := sqlite.NewForgetService(db).Purge(ctx, recall.PurgeCriteria{Search: "deploy"}); err != nil {
			t.Fatal(err)
		}
		if err := db.Check(ctx); err != nil {
			t.Fatal(err)
		}
		if n := countObservations(t, db, recall.ObservationFilter{Search: "deploy"}); n != 0 {
			t.Fatalf("search still finds %d", n)
		}
		if n := countObservations(t, db, recall.ObservationFilter{Search: "readme"}); n != 1 {
			t.Fatalf("search for a kept row finds %d", n)
		}
	})
}

// TestForgetService_Purge_RawBytes writes a marker into observations and
// into a memory with several versions, purges them, closes the store and
// scans every file beside the database for the marker's bytes. One marked
// observation takes the FTS merge path, 1,200 the rebuild path.
func TestForgetService_Purge_RawBytes(t *testing.T) {
	for _, marked := range []int{1, 1200} {
		t.Run(fmt.Sprint(marked), func(t *testing.T) { testPurgeRawBytes(t, marked) })
	}
}

func testPurgeRawBytes(t *testing.T, marked int) {
	ctx := context.Background()
	const marker = "Zq7Purge8Secret9x4"
	dir := t.TempDir()
	db := sqlite.NewDB(filepath.Join(dir, "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	filler := strings.Repeat("ordinary words about deploys and tests ", 40)
	var obs []*recall.Observation
	for i := range 200 {
		obs = append(obs, &recall.Observation{Type: "command", Session: "s", Content: fmt.Sprintf("%d %s", i, filler)})
	}
	for i := range marked {
		obs = append(obs, &recall.Observation{Type: "command", Session: "s", Content: fmt.Sprintf("export KEY%d=%s %s", i, marker, filler)})
	}
	seedObservations(t, db, obs...)
	mem := sqlite.NewMemoryService(db)
	res, err := mem.PutMemory(ctx, &recall.Memory{Title: "creds", Content: "the key is " + marker})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		c := fmt.Sprintf("the key is %s, rotated %d times %s", marker, i, filler)
		if _, err := mem.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Content: &c}); err != nil {
			t.Fatal(err)
		}
	}
	clean := "no secret here any more"
	if _, err := mem.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Content: &clean}); err != nil {
		t.Fatal(err)
	}
	if !storeHolds(t, dir, marker) {
		t.Fatal("marker not found before the purge: the scan proves nothing")
	}
	svc := sqlite.NewForgetService(db)
	if rep, err := svc.Purge(ctx, recall.PurgeCriteria{Search: marker}); err != nil || rep.Observations != marked {
		t.Fatalf("purge observations: %+v, %v", rep, err)
	}
	// The memory's live text no longer holds the marker: only its history does.
	if rep, err := svc.Purge(ctx, recall.PurgeCriteria{Search: marker, Memories: true}); err != nil || rep.Memories != 1 || rep.Versions != 5 {
		t.Fatalf("purge memories: %+v, %v", rep, err)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if storeHolds(t, dir, marker) {
		t.Fatal("marker survives the purge")
	}
}

// storeHolds scans every file in dir for the marker as written, in lower
// case (as the FTS index stores tokens) and its tail (FTS5 prefix-compresses
// terms on a page).
func storeHolds(t *testing.T, dir, marker string) bool {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range entries {
		buf, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, needle := range []string{marker, strings.ToLower(marker), strings.ToLower(marker[max(len(marker)-8, 0):])} {
			if bytes.Contains(buf, []byte(needle)) {
				t.Logf("%s holds %q", e.Name(), needle)
				found = true
			}
		}
	}
	return found
}

// FuzzForgetService_PlanPurge feeds arbitrary --search text to a purge
// plan: FTS5 syntax in it must be taken as words, never as a query error.
func FuzzForgetService_PlanPurge(f *testing.F) {
	for _, s := range []string{"sk-proj", `"unbalanced`, "NEAR(a b)", "a AND OR NOT", "col:val*", "^x", "", "   ", "日本語 テスト"} {
		f.Add(s)
	}
	db := purgeFixture(f)
	svc := sqlite.NewForgetService(db)
	f.Fuzz(func(t *testing.T, search string) {
		for _, memories := range []bool{false, true} {
			for _, rule := range recall.MatchRules {
				_, err := svc.PlanPurge(context.Background(), recall.PurgeCriteria{Search: search, Match: rule, Memories: memories}, 3)
				if err != nil && recall.ErrorCode(err) != recall.EINVALID {
					t.Fatalf("search %q, --match %s: %v", search, rule, err)
				}
			}
		}
	})
}
