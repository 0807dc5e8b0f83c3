package sqlite_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rollup"
	"github.com/recall-mem/recall/sqlite"
)

var day0 = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC) // a Monday

// seedStream records 21 days of observations: an editor preference that
// changes from vim to helix on day 10, a fact repeated daily, and noise.
func seedStream(tb testing.TB, db *sqlite.DB) {
	tb.Helper()
	var obs []*recall.Observation
	for d := 0; d < 21; d++ {
		at := day0.AddDate(0, 0, d)
		editor := "uses vim"
		if d >= 10 {
			editor = "uses helix"
		}
		obs = append(obs,
			&recall.Observation{At: at.Add(9 * time.Hour), Type: "preference", Key: "editor", Content: editor},
			&recall.Observation{At: at.Add(15 * time.Hour), Type: "preference", Key: "editor", Content: editor},
			&recall.Observation{At: at.Add(10 * time.Hour), Type: "fact", Key: "city", Content: "lives in Berlin"},
			&recall.Observation{At: at.Add(11 * time.Hour), Type: "command", Content: fmt.Sprintf("go test ./pkg%d", d%3)},
		)
	}
	if err := sqlite.NewObservationService(db).RecordObservations(context.Background(), obs); err != nil {
		tb.Fatal(err)
	}
}

func newRollups(tb testing.TB, db *sqlite.DB) *sqlite.RollupService {
	p, err := rollup.NewPolicy("UTC")
	if err != nil {
		tb.Fatal(err)
	}
	return sqlite.NewRollupService(db, p)
}

// seededStore is a store holding seedStream, with its rollup service.
func seededStore(tb testing.TB) (*sqlite.DB, *sqlite.RollupService) {
	tb.Helper()
	db := MustOpenDB(tb)
	seedStream(tb, db)
	return db, newRollups(tb, db)
}

// mustRun runs the rollup job and fails the test on an error.
func mustRun(tb testing.TB, s *sqlite.RollupService, run recall.RollupRun) *recall.RollupReport {
	tb.Helper()
	rep, err := s.RunRollups(context.Background(), run)
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}

// dump lists every rollup as comparable text.
func dump(tb testing.TB, s *sqlite.RollupService) []string {
	tb.Helper()
	any := "*"
	rs, err := s.FindRollups(context.Background(), recall.RollupFilter{Status: &any})
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s %s %s %s/%s %s conf=%.3f n=%d e=%d rolled=%v %s",
			r.ID, r.BucketType, r.BucketStart.Format(time.RFC3339), r.MemoryType, r.Key, r.Status, r.Confidence,
			r.SourceCount, r.Entries, r.RolledAt != nil, r.Summary))
	}
	return out
}

func TestRollupService_RunRollups(t *testing.T) {
	ctx := context.Background()
	now := day0.AddDate(0, 0, 22) // day 22: all 21 days and three weeks are closed

	t.Run("RollsEveryTier", func(t *testing.T) {
		db, s := seededStore(t)
		rep, err := s.RunRollups(ctx, recall.RollupRun{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Done || rep.Compacted != 84 {
			t.Fatalf("report %+v", rep)
		}
		// 21 days × 2 busy 4h buckets; 21 days; 3 weeks; no month is closed.
		if got, want := fmt.Sprint(rep.Buckets), "map[4h:42 daily:21 weekly:3]"; got != want {
			t.Fatalf("buckets %s, want %s", got, want)
		}
		key := "editor"
		weekly, err := s.FindRollups(ctx, recall.RollupFilter{BucketTypes: []string{"weekly"}, Key: &key})
		if err != nil {
			t.Fatal(err)
		}
		// Week 2 saw vim then helix: helix wins, and says what changed.
		if len(weekly) != 2 || weekly[0].Value != "uses helix" || weekly[1].Value != "uses helix" {
			t.Fatalf("active weekly editor rollups: %v", dump(t, s))
		}
		if !strings.Contains(weekly[1].Summary, `changed from "uses vim", said 6 times`) {
			t.Fatalf("summary %q", weekly[1].Summary)
		}
		// The vim rollups are contradicted by newer ones: all superseded.
		sup := recall.RollupSuperseded
		old, _ := s.FindRollups(ctx, recall.RollupFilter{Key: &key, Status: &sup})
		for _, r := range old {
			if r.Value != "uses vim" {
				t.Fatalf("superseded %s says %q", r.ID, r.Value)
			}
		}
		if len(old) != 20+10+1 {
			t.Fatalf("%d superseded, want 31 (20 4h, 10 daily, 1 weekly)", len(old))
		}
		active, _ := s.FindRollups(ctx, recall.RollupFilter{Key: &key})
		for _, r := range active {
			if r.Value != "uses helix" {
				t.Fatalf("active %s %s says %q", r.BucketType, r.BucketStart, r.Value)
			}
		}
		left, _, _ := sqlite.NewObservationService(db).FindObservations(ctx, recall.ObservationFilter{Status: ptr("active")})
		if len(left) != 0 {
			t.Fatalf("%d observations left active", len(left))
		}
	})

	t.Run("MonthlyWaitsForItsLastWeek", func(t *testing.T) {
		_, s := seededStore(t)
		// March 2026's last week starts Monday the 30th and ends 6 April.
		if rep := mustRun(t, s, recall.RollupRun{Now: time.Date(2026, 4, 5, 23, 0, 0, 0, time.UTC)}); rep.Buckets["monthly"] != 0 {
			t.Fatalf("monthly rolled before its last week closed: %v", rep.Buckets)
		}
		if rep := mustRun(t, s, recall.RollupRun{Now: time.Date(2026, 4, 6, 0, 0, 0, 0, time.UTC)}); rep.Buckets["monthly"] != 1 {
			t.Fatalf("buckets %v", rep.Buckets)
		}
		month, err := s.FindRollup(ctx, rollup.RollupID("monthly", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), "preference", "editor"))
		if err != nil {
			t.Fatal(err)
		}
		if month.Entries != 42 || month.Value != "uses helix" || month.SourceCount != 3 || month.Status != recall.RollupActive {
			t.Fatalf("monthly %+v", month)
		}
	})

	t.Run("SecondRunChangesNothing", func(t *testing.T) {
		db, s := seededStore(t)
		mustRun(t, s, recall.RollupRun{Now: now})
		before := dump(t, s)
		db.Now = func() time.Time { return now.Add(time.Hour) } // a changed row would show a new updated_at
		rep, err := s.RunRollups(ctx, recall.RollupRun{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Buckets) != 0 || rep.Compacted != 0 {
			t.Fatalf("second run did %+v", rep)
		}
		if diff := diffLines(before, dump(t, s)); diff != "" {
			t.Fatalf("second run changed rollups:\n%s", diff)
		}
	})

	t.Run("Incremental", func(t *testing.T) {
		_, s := seededStore(t)
		// Day by day, as a scheduled job would, then to the end.
		for d := 1; d <= 22; d++ {
			mustRun(t, s, recall.RollupRun{Now: day0.AddDate(0, 0, d).Add(-time.Minute)})
		}
		got := dump(t, s)
		_, rs := seededStore(t)
		mustRun(t, rs, recall.RollupRun{Now: now})
		if diff := diffLines(dump(t, rs), got); diff != "" {
			t.Fatalf("daily runs differ from one run (-one +daily):\n%s", diff)
		}
	})

	t.Run("ResumesAfterACrash", func(t *testing.T) {
		_, rs := seededStore(t)
		mustRun(t, rs, recall.RollupRun{Now: now})
		want := dump(t, rs)
		for _, stopAfter := range []int{1, 45, 64} { // inside the 4h, daily and weekly phases
			_, s := seededStore(t)
			cctx, cancel := context.WithCancel(ctx)
			n := 0
			rep, err := s.RunRollups(cctx, recall.RollupRun{Now: now, OnBucket: func(recall.RollupBucket, int) {
				if n++; n == stopAfter {
					cancel()
				}
			}})
			cancel()
			if err != nil || rep.Done {
				t.Fatalf("stopped run: %+v, %v", rep, err)
			}
			if rep, err = s.RunRollups(ctx, recall.RollupRun{Now: now}); err != nil || !rep.Done {
				t.Fatalf("resumed run: %+v, %v", rep, err)
			}
			if diff := diffLines(want, dump(t, s)); diff != "" {
				t.Fatalf("stopped after %d buckets, then resumed (-want +got):\n%s", stopAfter, diff)
			}
		}
	})

	t.Run("DryRunWritesNothing", func(t *testing.T) {
		_, s := seededStore(t)
		rep, err := s.RunRollups(ctx, recall.RollupRun{Now: now, DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Buckets["weekly"] != 3 || len(rep.Written) == 0 || rep.Compacted != 84 {
			t.Fatalf("dry run report %+v", rep)
		}
		if got := dump(t, s); len(got) != 0 {
			t.Fatalf("dry run wrote %d rollups", len(got))
		}
	})

	t.Run("OpenBucketsWait", func(t *testing.T) {
		_, s := seededStore(t)
		// 12:00 on day 3: the 08–12 bucket just closed, 12–16 is open.
		rep, err := s.RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 0, 3).Add(12 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Buckets["4h"] != 3*2+1 || rep.Buckets["daily"] != 3 || rep.Buckets["weekly"] != 0 {
			t.Fatalf("buckets %v", rep.Buckets)
		}
	})

	t.Run("LateEntryJoinsItsBucket", func(t *testing.T) {
		db, s := seededStore(t)
		mustRun(t, s, recall.RollupRun{Now: now})
		late := &recall.Observation{At: day0.Add(9*time.Hour + 30*time.Minute), Type: "preference", Key: "editor", Content: "uses vim"}
		if err := sqlite.NewObservationService(db).RecordObservations(ctx, []*recall.Observation{late}); err != nil {
			t.Fatal(err)
		}
		rep, err := s.RunRollups(ctx, recall.RollupRun{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Buckets["4h"] != 1 || rep.Buckets["daily"] != 1 || rep.Buckets["weekly"] != 1 || rep.Compacted != 1 {
			t.Fatalf("report %+v", rep)
		}
		week, err := s.FindRollup(ctx, rollup.RollupID("weekly", day0, "preference", "editor"))
		if err != nil {
			t.Fatal(err)
		}
		if week.Entries != 15 || week.SourceCount != 7 {
			t.Fatalf("week 1: entries %d sources %d", week.Entries, week.SourceCount)
		}
	})

	t.Run("PrunedFineTierStillMergesLateEntries", func(t *testing.T) {
		db, s := seededStore(t)
		keep := map[string]time.Duration{recall.Bucket4h: 24 * time.Hour}
		rep, err := s.RunRollups(ctx, recall.RollupRun{Now: now, Keep: keep})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Pruned != 84 { // every 4h rollup: the stream ends on day 20
			t.Fatalf("pruned %d", rep.Pruned)
		}
		late := &recall.Observation{At: day0.Add(9*time.Hour + 30*time.Minute), Type: "preference", Key: "editor", Content: "uses vim"}
		if err := sqlite.NewObservationService(db).RecordObservations(ctx, []*recall.Observation{late}); err != nil {
			t.Fatal(err)
		}
		mustRun(t, s, recall.RollupRun{Now: now, Keep: keep})
		day, err := s.FindRollup(ctx, rollup.RollupID("daily", day0, "preference", "editor"))
		if err != nil {
			t.Fatal(err)
		}
		week, err := s.FindRollup(ctx, rollup.RollupID("weekly", day0, "preference", "editor"))
		if err != nil {
			t.Fatal(err)
		}
		if day.Entries != 3 || day.Values[0].Count != 3 || week.Entries != 15 {
			t.Fatalf("day entries %d (%+v), week entries %d", day.Entries, day.Values, week.Entries)
		}
	})

	t.Run("RawMemories", func(t *testing.T) {
		db := MustOpenDB(t)
		ms := sqlite.NewMemoryService(db)
		put := func(m recall.Memory) string {
			res, err := ms.PutMemory(ctx, &m)
			if err != nil {
				t.Fatal(err)
			}
			return res.Memory.ID
		}
		a := put(recall.Memory{Title: "Theme", Type: "preference", Content: "dark", OccurredAt: day0.Add(time.Hour), Confidence: 0.8})
		b := put(recall.Memory{Title: "Theme", Type: "preference", Content: "light", OccurredAt: day0.Add(2 * time.Hour)})
		keyed := put(recall.Memory{Key: "deploy", Title: "Deploy", Content: "via staging", OccurredAt: day0.Add(time.Hour)})
		pinned := put(recall.Memory{Title: "Core", Content: "be kind", Pinned: true, OccurredAt: day0.Add(time.Hour)})
		working := put(recall.Memory{Title: "Now", Content: "focus", Tier: recall.TierWorking, OccurredAt: day0.Add(time.Hour)})
		s := newRollups(t, db)
		mustRun(t, s, recall.RollupRun{Now: day0.AddDate(0, 0, 1)})
		for id, want := range map[string]string{a: "compacted", b: "compacted", keyed: "active", pinned: "active", working: "active"} {
			m, err := ms.FindMemory(ctx, id, "")
			if err != nil || m.Status != want {
				t.Fatalf("%s: status %v, want %s (%v)", id, m, want, err)
			}
		}
		r, err := s.FindRollup(ctx, rollup.RollupID("4h", day0, "preference", "theme"))
		if err != nil {
			t.Fatal(err)
		}
		if r.Value != "light" || len(r.Sources) != 2 || r.Sources[0].ID != a || r.Sources[1].Kind != recall.SourceMemory {
			t.Fatalf("rollup %+v", r)
		}
	})
}

func TestRollupService_FindRollup(t *testing.T) {
	ctx := context.Background()
	db, s := seededStore(t)
	mustRun(t, s, recall.RollupRun{Now: day0.AddDate(0, 0, 22)})
	t.Run("SourcesOfATier", func(t *testing.T) {
		r, err := s.FindRollup(ctx, rollup.RollupID("daily", day0, "preference", "editor"))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Sources) != 2 || r.Sources[0].Kind != recall.SourceRollup || r.Sources[0].Rollup == nil {
			t.Fatalf("sources %+v", r.Sources)
		}
	})
	t.Run("SweptSourceIsMissing", func(t *testing.T) {
		id := rollup.RollupID("4h", day0.Add(8*time.Hour), "preference", "editor")
		r, err := s.FindRollup(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.SweepCompacted(ctx, day0.AddDate(0, 0, 1)); err != nil {
			t.Fatal(err)
		}
		after, err := s.FindRollup(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(after.Sources) != len(r.Sources) || !after.Sources[0].Missing || r.Sources[0].Missing {
			t.Fatalf("before %+v after %+v", r.Sources, after.Sources)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		if _, err := s.FindRollup(ctx, "nope"); recall.ErrorCode(err) != recall.ENOTFOUND {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrUnknownBucketType", func(t *testing.T) {
		if _, err := s.FindRollups(ctx, recall.RollupFilter{BucketTypes: []string{"hourly"}}); recall.ErrorCode(err) != recall.EINVALID {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("Search", func(t *testing.T) {
		hits, err := s.SearchRollups(ctx, recall.RollupFilter{Search: "which editor", BucketTypes: []string{"weekly"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 2 || hits[0].Rollup.Key != "editor" || hits[0].Score <= 0 {
			t.Fatalf("hits %+v", hits)
		}
	})
	t.Run("TierStats", func(t *testing.T) {
		stats, err := s.TierStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, st := range stats {
			got = append(got, fmt.Sprintf("%s/%s/%s=%d", st.Tier, st.Kind, st.Status, st.Count))
			if st.Count > 0 && (st.Bytes <= 0 || st.Tokens <= 0 || st.From == nil || st.To.Before(*st.From)) {
				t.Errorf("bad stat %+v", st)
			}
		}
		if !strings.Contains(strings.Join(got, " "), "rollup/weekly/active=") {
			t.Fatalf("stats %v", got)
		}
	})
}

// diffLines returns the lines only in want (-) or only in got (+).
func diffLines(want, got []string) string {
	in := func(xs []string) map[string]bool {
		m := map[string]bool{}
		for _, x := range xs {
			m[x] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var out []string
	for _, x := range want {
		if !g[x] {
			out = append(out, "- "+x)
		}
	}
	for _, x := range got {
		if !w[x] {
			out = append(out, "+ "+x)
		}
	}
	if len(out) == 0 && len(want) != len(got) {
		out = append(out, fmt.Sprintf("%d lines, want %d", len(got), len(want)))
	}
	return strings.Join(out, "\n")
}

// A store whose rollups all lack a key (rollups of observations, what
// hooks record) has no current rollup: CurrentRollups says so without
// the window query that reads every rollup row, and once a keyed rollup
// exists it runs that query and finds it.
func TestCurrentRollups_UnkeyedStoreRunsNoScan(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	var obs []*recall.Observation
	for d := 0; d < 10; d++ {
		obs = append(obs, &recall.Observation{At: day0.AddDate(0, 0, d).Add(9 * time.Hour), Type: "command", Content: fmt.Sprintf("go test ./pkg%d", d%3)})
	}
	if err := sqlite.NewObservationService(db).RecordObservations(ctx, obs); err != nil {
		t.Fatal(err)
	}
	s := newRollups(t, db)
	mustRun(t, s, recall.RollupRun{Now: day0.AddDate(0, 1, 0)})
	if n, err := db.Strings(ctx, `SELECT COUNT(*) FROM memory_rollups WHERE key = ''`); err != nil || n[0] == "0" {
		t.Fatalf("unkeyed rollups = %v, %v; want some", n, err)
	}

	before := sqlite.CurrentRollupScans()
	rs, err := s.CurrentRollups(ctx, recall.RollupFilter{})
	if err != nil || len(rs) != 0 {
		t.Fatalf("current rollups = %d, %v; want none", len(rs), err)
	}
	if n := sqlite.CurrentRollupScans() - before; n != 0 {
		t.Errorf("window queries run = %d; want 0 without a keyed rollup", n)
	}

	seedStream(t, db) // adds keyed preferences and facts
	mustRun(t, s, recall.RollupRun{Now: day0.AddDate(0, 2, 0)})
	rs, err = s.CurrentRollups(ctx, recall.RollupFilter{})
	if err != nil || len(rs) == 0 {
		t.Fatalf("current rollups = %d, %v; want the keyed ones", len(rs), err)
	}
	for _, r := range rs {
		if r.Key == "" {
			t.Errorf("current rollup %s has no key", r.ID)
		}
	}
	if n := sqlite.CurrentRollupScans() - before; n != 1 {
		t.Errorf("window queries run = %d; want 1 once keyed rollups exist", n)
	}
}
