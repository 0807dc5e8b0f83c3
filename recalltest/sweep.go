package recalltest

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

func testSweep(t *testing.T, open func(t *testing.T) recall.Store) {
	ctx := context.Background()
	now := day0.AddDate(0, 0, 30)
	// seed records, per type, one observation 20 days old and one 2 days
	// old, and a pinned old command.
	seed := func(t *testing.T, st recall.Store) []*recall.Observation {
		t.Helper()
		var obs []*recall.Observation
		for _, typ := range []string{recall.ObsCommand, recall.ObsFileRead, recall.ObsUserPrompt} {
			obs = append(obs,
				&recall.Observation{At: now.AddDate(0, 0, -20), Type: typ, Session: "old", Content: "old " + typ},
				&recall.Observation{At: now.AddDate(0, 0, -2), Type: typ, Session: "new", Content: "new " + typ})
		}
		obs = append(obs, &recall.Observation{At: now.AddDate(0, 0, -20), Type: recall.ObsCommand, Session: "old", Content: "landmark"})
		record(t, st, obs...)
		if err := st.Observations().PinObservation(ctx, obs[len(obs)-1].ID, true); err != nil {
			t.Fatal(err)
		}
		return obs
	}
	p := recall.RetentionPolicy{Enabled: true, Days: map[string]int{recall.ObsCommand: 7, recall.ObsFileRead: 30, recall.ObsUserPrompt: 0}}
	t.Run("PerType", func(t *testing.T) {
		st := open(t)
		seed(t, st)
		rep, err := st.Forgetting().Sweep(ctx, p, now, false)
		if err != nil {
			t.Fatal(err)
		}
		if rep.DryRun || !rep.Enabled || rep.Deleted != 1 || !maps.Equal(rep.ByType, map[string]int{recall.ObsCommand: 1}) {
			t.Fatalf("Sweep = %+v: want the one old unpinned command", rep)
		}
		if n := countObs(t, st, recall.ObservationFilter{Type: ptr(recall.ObsCommand)}); n != 2 {
			t.Fatalf("%d commands left, want the new one and the landmark", n)
		}
		if n := countObs(t, st, recall.ObservationFilter{}); n != 6 {
			t.Fatalf("%d observations left, want 6", n)
		}
		stats, err := st.Forgetting().StoreStats(ctx, now)
		if err != nil || stats.LastSweep == nil {
			t.Fatalf("StoreStats after a sweep = %+v, %v: want LastSweep", stats, err)
		}
	})
	t.Run("DryRun", func(t *testing.T) {
		st := open(t)
		seed(t, st)
		wide := recall.RetentionPolicy{Enabled: true, Days: map[string]int{recall.ObsCommand: 1, recall.ObsFileRead: 1, recall.ObsUserPrompt: 1}}
		dry, err := st.Forgetting().Sweep(ctx, wide, now, true)
		if err != nil || !dry.DryRun || dry.Deleted != 6 {
			t.Fatalf("dry-run Sweep = %+v, %v: want six counted", dry, err)
		}
		if n := countObs(t, st, recall.ObservationFilter{}); n != 7 {
			t.Fatalf("a dry run left %d observations, want all 7", n)
		}
		if stats, err := st.Forgetting().StoreStats(ctx, now); err != nil || stats.LastSweep != nil {
			t.Fatalf("StoreStats after a dry run = %+v, %v: want no LastSweep", stats, err)
		}
		real, err := st.Forgetting().Sweep(ctx, wide, now, false)
		if err != nil || real.Deleted != dry.Deleted || !maps.Equal(real.ByType, dry.ByType) || real.Sessions != dry.Sessions {
			t.Fatalf("Sweep = %+v after a dry run %+v, %v: want the same counts", real, dry, err)
		}
	})
	t.Run("Disabled", func(t *testing.T) {
		st := open(t)
		seed(t, st)
		off := p
		off.Enabled = false
		rep, err := st.Forgetting().Sweep(ctx, off, now, false)
		if err != nil || rep.Deleted != 0 || rep.Enabled {
			t.Fatalf("Sweep with retention off = %+v, %v: want nothing", rep, err)
		}
		if n := countObs(t, st, recall.ObservationFilter{}); n != 7 {
			t.Fatalf("%d observations left, want 7", n)
		}
	})
	t.Run("EmptySessions", func(t *testing.T) {
		st := open(t)
		s := st.Sessions(recall.SessionOptions{})
		for _, id := range []string{"old", "new"} {
			if err := s.EnsureSession(ctx, &recall.Session{ID: id, StartedAt: now.AddDate(0, 0, -21)}); err != nil {
				t.Fatal(err)
			}
		}
		record(t, st,
			&recall.Observation{At: now.AddDate(0, 0, -20), Type: recall.ObsCommand, Session: "old", Content: "old"},
			&recall.Observation{At: now.AddDate(0, 0, -2), Type: recall.ObsCommand, Session: "new", Content: "new"})
		pol := recall.RetentionPolicy{Enabled: true, Days: map[string]int{recall.ObsCommand: 7}}
		dry, err := st.Forgetting().Sweep(ctx, pol, now, true)
		if err != nil || dry.Deleted != 1 || dry.Sessions != 1 {
			t.Fatalf("dry-run Sweep = %+v, %v: want the emptied session counted", dry, err)
		}
		if all, _ := s.FindSessions(ctx, 0); len(all) != 2 {
			t.Fatalf("a dry run left %d sessions, want 2", len(all))
		}
		rep, err := st.Forgetting().Sweep(ctx, pol, now, false)
		if err != nil || rep.Deleted != 1 || rep.Sessions != 1 {
			t.Fatalf("Sweep = %+v, %v: want one observation and its emptied session", rep, err)
		}
		all, _ := s.FindSessions(ctx, 0)
		if len(all) != 1 || all[0].ID != "new" {
			t.Fatalf("sessions left %d, want only the one with observations", len(all))
		}
	})
	t.Run("Compacted", func(t *testing.T) {
		st := open(t)
		record(t, st,
			&recall.Observation{At: day0.Add(9 * time.Hour), Type: "fact", Key: "city", Content: "lives in Berlin"},
			&recall.Observation{At: day0.Add(10 * time.Hour), Type: "fact", Key: "city", Content: "lives in Berlin"})
		if rep, err := st.Rollups(policy(t)).RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 0, 2)}); err != nil || rep.Compacted != 2 {
			t.Fatalf("RunRollups = %+v, %v", rep, err)
		}
		if n := countObs(t, st, recall.ObservationFilter{Status: ptr(recall.StatusCompacted)}); n != 2 {
			t.Fatalf("%d compacted observations, want 2", n)
		}
		keep := recall.RetentionPolicy{CompactedDays: 0}
		if rep, err := st.Forgetting().Sweep(ctx, keep, now, false); err != nil || rep.Deleted != 0 {
			t.Fatalf("Sweep keeping compacted forever = %+v, %v", rep, err)
		}
		// Type retention never removes rollup sources; raw retention of
		// compacted entries does, even with type retention off.
		typed := recall.RetentionPolicy{Enabled: true, Days: map[string]int{"fact": 1}}
		if rep, err := st.Forgetting().Sweep(ctx, typed, now, false); err != nil || rep.Deleted != 0 {
			t.Fatalf("Sweep by type of rolled-up observations = %+v, %v: want none", rep, err)
		}
		dry, err := st.Forgetting().Sweep(ctx, recall.RetentionPolicy{CompactedDays: 7}, now, true)
		if err != nil || dry.Compacted != 2 || dry.Deleted != 2 {
			t.Fatalf("dry-run Sweep of compacted observations = %+v, %v", dry, err)
		}
		if n := countObs(t, st, recall.ObservationFilter{}); n != 2 {
			t.Fatalf("a dry run left %d observations, want 2", n)
		}
		rep, err := st.Forgetting().Sweep(ctx, recall.RetentionPolicy{CompactedDays: 7}, now, false)
		if err != nil || rep.Compacted != 2 || rep.Deleted != 2 {
			t.Fatalf("Sweep of compacted observations = %+v, %v", rep, err)
		}
		r, err := st.Rollups(nil).FindRollups(ctx, recall.RollupFilter{Key: ptr("city")})
		if err != nil || len(r) == 0 {
			t.Fatalf("the rollups of swept observations = %v, %v: want them kept", r, err)
		}
	})
}

func testStats(t *testing.T, open func(t *testing.T) recall.Store) {
	ctx := context.Background()
	t.Run("Empty", func(t *testing.T) {
		stats, err := open(t).Forgetting().StoreStats(ctx, time.Now())
		if err != nil || stats.Observations != 0 || stats.Memories != 0 || stats.Versions != 0 || stats.Sessions != 0 || stats.LastSweep != nil || stats.LastPurge != nil {
			t.Fatalf("StoreStats of a new store = %+v, %v", stats, err)
		}
	})
	t.Run("Counts", func(t *testing.T) {
		st := open(t)
		mem := st.Memories()
		a := mustPut(t, mem, &recall.Memory{Content: "one", Tier: recall.TierWorking})
		mustPut(t, mem, &recall.Memory{Content: "two", Tier: recall.TierArchive})
		mustPut(t, mem, &recall.Memory{Content: "three", Tier: recall.TierArchive})
		if _, err := mem.UpdateMemory(ctx, a.ID, recall.MemoryUpdate{Content: ptr("one, changed")}); err != nil {
			t.Fatal(err)
		}
		record(t, st,
			&recall.Observation{At: day0, Type: recall.ObsCommand, Session: "s1", Content: "a"},
			&recall.Observation{At: day0, Type: recall.ObsCommand, Session: "s1", Content: "b"},
			&recall.Observation{At: day0, Type: recall.ObsFileRead, Session: "s1", Content: "c"})
		if err := st.Sessions(recall.SessionOptions{}).EnsureSession(ctx, &recall.Session{ID: "s1"}); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		stats, err := st.Forgetting().StoreStats(ctx, now)
		if err != nil {
			t.Fatal(err)
		}
		if !stats.At.Equal(now) && !stats.At.Equal(now.UTC()) {
			t.Errorf("At = %v, want %v", stats.At, now)
		}
		if stats.Observations != 3 || !maps.Equal(stats.ObservationsByType, map[string]int{recall.ObsCommand: 2, recall.ObsFileRead: 1}) {
			t.Errorf("observations %d %v", stats.Observations, stats.ObservationsByType)
		}
		if stats.Memories != 3 || !maps.Equal(stats.MemoriesByTier, map[string]int{recall.TierWorking: 1, recall.TierArchive: 2}) {
			t.Errorf("memories %d %v", stats.Memories, stats.MemoriesByTier)
		}
		if stats.Versions != 4 || stats.Sessions != 1 {
			t.Errorf("versions %d, sessions %d: want 4 and 1", stats.Versions, stats.Sessions)
		}
		if stats.DBBytes <= 0 {
			t.Errorf("DBBytes %d", stats.DBBytes)
		}
		if stats.Rollups != 0 || stats.RollupsByType != nil {
			t.Errorf("rollups %d %v: want none", stats.Rollups, stats.RollupsByType)
		}
	})
	t.Run("Rollups", func(t *testing.T) {
		// StoreStats counts the rollups of every status by bucket type, as
		// the tier statistics do (the web UI's overview reads them from
		// StoreStats alone).
		st := open(t)
		for d := range 7 {
			record(t, st, &recall.Observation{At: day0.AddDate(0, 0, d).Add(9 * time.Hour), Type: "fact", Key: "city", Content: "lives in Berlin"})
		}
		r := st.Rollups(policy(t))
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 0, 8)}); err != nil {
			t.Fatal(err)
		}
		tiers, err := r.TierStats(ctx)
		want := countTiers(t, tiers, err, func(s recall.TierStat) string {
			if s.Tier != "rollup" {
				return ""
			}
			return s.Kind
		})
		if want[recall.Bucket4h] == 0 || want[recall.BucketDaily] == 0 || want[recall.BucketWeekly] == 0 {
			t.Fatalf("tier statistics %v: want 4h, daily and weekly rollups", want)
		}
		stats, err := st.Forgetting().StoreStats(ctx, day0.AddDate(0, 0, 8))
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, n := range want {
			total += n
		}
		if stats.Rollups != total || !maps.Equal(stats.RollupsByType, want) {
			t.Errorf("StoreStats counts %d rollups %v, the tier statistics %d %v", stats.Rollups, stats.RollupsByType, total, want)
		}
	})
}
