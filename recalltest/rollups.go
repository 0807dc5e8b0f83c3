package recalltest

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TestRollups runs the contract of the time-tier rollups (RollupStore)
// with the rollup package's policy in UTC. open returns a fresh, empty
// store.
func TestRollups(t *testing.T, open func(t *testing.T) recall.Store) {
	ctx := context.Background()
	// stream records a week of observations from day0: the editor said
	// each morning (vim for three days, then helix) and a city each noon.
	stream := func(t *testing.T, st recall.Store) recall.RollupStore {
		t.Helper()
		for d := 0; d < 7; d++ {
			editor := "uses vim"
			if d >= 3 {
				editor = "uses helix"
			}
			at := day0.AddDate(0, 0, d)
			record(t, st,
				&recall.Observation{At: at.Add(9 * time.Hour), Type: "preference", Key: "editor", Content: editor},
				&recall.Observation{At: at.Add(13 * time.Hour), Type: "fact", Key: "city", Content: "lives in Berlin"})
		}
		return st.Rollups(policy(t))
	}
	weekEnd := day0.AddDate(0, 0, 8)
	all := func(t *testing.T, r recall.RollupStore) []*recall.Rollup {
		t.Helper()
		rs, err := r.FindRollups(ctx, recall.RollupFilter{Status: ptr("*")})
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	t.Run("Run", func(t *testing.T) {
		st := open(t)
		r := stream(t, st)
		rep, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd})
		if err != nil || !rep.Done || rep.DryRun || rep.Compacted != 14 {
			t.Fatalf("RunRollups = %+v, %v: want every observation compacted", rep, err)
		}
		if rep.Buckets[recall.Bucket4h] != 14 || rep.Buckets[recall.BucketDaily] != 7 || rep.Buckets[recall.BucketWeekly] != 1 || rep.Buckets[recall.BucketMonthly] != 0 {
			t.Fatalf("buckets %v: want 14 4h, 7 daily, 1 weekly, no month closed", rep.Buckets)
		}
		if n := countObs(t, st, recall.ObservationFilter{Status: ptr(recall.StatusCompacted)}); n != 14 {
			t.Fatalf("%d observations compacted, want 14", n)
		}
		written := 0
		for _, n := range rep.Rollups {
			written += n
		}
		if got := len(all(t, r)); got != written {
			t.Fatalf("%d rollups stored, the report says %d", got, written)
		}
		again, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd})
		if err != nil || again.Compacted != 0 || len(all(t, r)) != written {
			t.Fatalf("a second run = %+v, %v: want nothing new", again, err)
		}
	})
	t.Run("DryRun", func(t *testing.T) {
		st := open(t)
		r := stream(t, st)
		rep, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd, DryRun: true})
		if err != nil || !rep.DryRun || rep.Compacted != 14 || len(rep.Written) == 0 {
			t.Fatalf("dry run = %+v, %v: want the rollups listed", rep, err)
		}
		if rs := all(t, r); len(rs) != 0 {
			t.Fatalf("a dry run stored %d rollups", len(rs))
		}
		if n := countObs(t, st, recall.ObservationFilter{Status: ptr(recall.StatusCompacted)}); n != 0 {
			t.Fatalf("a dry run compacted %d observations", n)
		}
		real, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range real.Rollups {
			n += c
		}
		if n != len(rep.Written) {
			t.Fatalf("the run wrote %d rollups, its dry run listed %d", n, len(rep.Written))
		}
	})
	t.Run("OpenBuckets", func(t *testing.T) {
		st := open(t)
		r := stream(t, st)
		now := day0.AddDate(0, 0, 2).Add(12*time.Hour + 30*time.Minute) // day 2: its 8-12 bucket closed, the city still open
		rep, err := r.RunRollups(ctx, recall.RollupRun{Now: now})
		if err != nil || rep.Compacted != 5 || rep.Buckets[recall.BucketWeekly] != 0 {
			t.Fatalf("RunRollups mid-week = %+v, %v: want days 0, 1 and the morning of day 2", rep, err)
		}
		if n := countObs(t, st, recall.ObservationFilter{Status: ptr("active")}); n != 9 {
			t.Fatalf("%d observations left open, want 9", n)
		}
	})
	t.Run("Cancelled", func(t *testing.T) {
		st := open(t)
		r := stream(t, st)
		c, cancel := context.WithCancel(ctx)
		cancel()
		rep, err := r.RunRollups(c, recall.RollupRun{Now: weekEnd})
		if err != nil || rep.Done {
			t.Fatalf("a cancelled run = %+v, %v: want Done false and no error", rep, err)
		}
		rep, err = r.RunRollups(ctx, recall.RollupRun{Now: weekEnd})
		if err != nil || !rep.Done {
			t.Fatalf("the resumed run = %+v, %v", rep, err)
		}
		if n := countObs(t, st, recall.ObservationFilter{Status: ptr(recall.StatusCompacted)}); n != 14 {
			t.Fatalf("%d observations compacted after the resumed run, want 14", n)
		}
	})
	t.Run("Supersede", func(t *testing.T) {
		r := stream(t, open(t))
		rep, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd})
		if err != nil || rep.Conflicts == 0 {
			t.Fatalf("RunRollups = %+v, %v: vim then helix must supersede", rep, err)
		}
		old, err := r.FindRollups(ctx, recall.RollupFilter{Key: ptr("editor"), Status: ptr(recall.RollupSuperseded)})
		if err != nil || len(old) == 0 {
			t.Fatalf("superseded editor rollups = %d, %v", len(old), err)
		}
		for _, x := range old {
			if x.Value != "uses vim" || x.Status != recall.RollupSuperseded {
				t.Fatalf("superseded %+v: want the vim days", x)
			}
		}
		active, err := r.FindRollups(ctx, recall.RollupFilter{Key: ptr("editor")})
		if err != nil || len(active) == 0 {
			t.Fatalf("active editor rollups = %d, %v", len(active), err)
		}
		for _, x := range active {
			if x.Status != recall.RollupActive || x.Value != "uses helix" {
				t.Fatalf("the default filter returned %s %q: want active helix only", x.Status, x.Value)
			}
		}
	})
	t.Run("FindRollup", func(t *testing.T) {
		r := stream(t, open(t))
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd}); err != nil {
			t.Fatal(err)
		}
		weekly, err := r.FindRollups(ctx, recall.RollupFilter{BucketTypes: []string{recall.BucketWeekly}, Key: ptr("city")})
		if err != nil || len(weekly) != 1 {
			t.Fatalf("weekly city rollups = %d, %v", len(weekly), err)
		}
		w := weekly[0]
		if w.Entries != 7 || w.SourceCount != 7 || w.MemoryType != "fact" || !w.BucketStart.Equal(day0) || !w.BucketEnd.Equal(day0.AddDate(0, 0, 7)) {
			t.Fatalf("weekly rollup %+v: want 7 daily sources, 7 entries, the week of day0", w)
		}
		got, err := r.FindRollup(ctx, w.ID)
		if err != nil || got.ID != w.ID || len(got.Sources) != 7 {
			t.Fatalf("FindRollup = %+v, %v: want its 7 sources", got, err)
		}
		for i, src := range got.Sources {
			if src.Kind != recall.SourceRollup || (i > 0 && src.At.Before(got.Sources[i-1].At)) {
				t.Fatalf("source %d = %+v: want daily rollups oldest first", i, src)
			}
		}
		_, err = r.FindRollup(ctx, "no-such-rollup")
		wantCode(t, err, recall.ENOTFOUND)
	})
	t.Run("Filters", func(t *testing.T) {
		r := stream(t, open(t))
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd}); err != nil {
			t.Fatal(err)
		}
		find := func(f recall.RollupFilter) []*recall.Rollup {
			t.Helper()
			rs, err := r.FindRollups(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			return rs
		}
		daily := find(recall.RollupFilter{BucketTypes: []string{recall.BucketDaily}, MemoryType: ptr("fact")})
		if len(daily) != 7 {
			t.Fatalf("%d daily fact rollups, want 7", len(daily))
		}
		for i, x := range daily {
			if x.BucketType != recall.BucketDaily || x.MemoryType != "fact" {
				t.Fatalf("filtered rollup %+v", x)
			}
			if i > 0 && x.BucketStart.After(daily[i-1].BucketStart) {
				t.Fatal("FindRollups without a search: want the newest bucket first")
			}
		}
		since, until := day0.AddDate(0, 0, 2), day0.AddDate(0, 0, 4)
		win := find(recall.RollupFilter{BucketTypes: []string{recall.BucketDaily}, MemoryType: ptr("fact"), Since: &since, Until: &until})
		if len(win) != 2 || !win[0].BucketStart.Equal(day0.AddDate(0, 0, 3)) || !win[1].BucketStart.Equal(since) {
			t.Fatalf("daily fact rollups in days 2-3: %d", len(win))
		}
		if got := find(recall.RollupFilter{BucketTypes: []string{recall.BucketDaily}, Limit: 3, Status: ptr("*")}); len(got) != 3 {
			t.Fatalf("Limit 3 returned %d", len(got))
		}
		if got := find(recall.RollupFilter{Search: "berlin", BucketTypes: []string{recall.BucketWeekly}}); len(got) != 1 || got[0].Key != "city" {
			t.Fatalf("search berlin in weekly rollups: %d", len(got))
		}
		earlier := time.Now().Add(-time.Hour)
		if got, want := len(find(recall.RollupFilter{UpdatedSince: &earlier})), len(find(recall.RollupFilter{})); got != want || got == 0 {
			t.Fatalf("rollups updated in the last hour: %d, want every active one (%d)", got, want)
		}
		if got := find(recall.RollupFilter{Search: "berlin", Limit: 2}); len(got) != 2 {
			t.Fatalf("search with Limit 2 returned %d", len(got))
		}
		later := time.Now().Add(time.Hour)
		if got := find(recall.RollupFilter{UpdatedSince: &later}); len(got) != 0 {
			t.Fatalf("rollups updated after now: %d", len(got))
		}
		_, err := r.FindRollups(ctx, recall.RollupFilter{BucketTypes: []string{"hourly"}})
		wantCode(t, err, recall.EINVALID)
	})
	t.Run("Search", func(t *testing.T) {
		r := stream(t, open(t))
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd}); err != nil {
			t.Fatal(err)
		}
		hits, err := r.SearchRollups(ctx, recall.RollupFilter{Search: "helix", PerKey: true})
		if err != nil || len(hits) != 1 || hits[0].Rollup.Key != "editor" || hits[0].Score <= 0 {
			t.Fatalf("SearchRollups per key = %+v, %v: want one editor rollup with a positive score", hits, err)
		}
		hits, err = r.SearchRollups(ctx, recall.RollupFilter{Search: "berlin"})
		if err != nil || len(hits) < 2 {
			t.Fatalf("SearchRollups = %d, %v", len(hits), err)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score {
				t.Fatal("SearchRollups: want the best score first")
			}
		}
	})
	t.Run("Current", func(t *testing.T) {
		r := stream(t, open(t))
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd}); err != nil {
			t.Fatal(err)
		}
		cur, err := r.CurrentRollups(ctx, recall.RollupFilter{})
		if err != nil {
			t.Fatal(err)
		}
		keys := map[string]*recall.Rollup{}
		for _, x := range cur {
			if keys[x.Key] != nil {
				t.Fatalf("two current rollups of key %q", x.Key)
			}
			keys[x.Key] = x
		}
		if e := keys["editor"]; e == nil || e.Value != "uses helix" || e.Status != recall.RollupActive {
			t.Fatalf("current editor rollup %+v", e)
		}
		if c := keys["city"]; c == nil || c.BucketType != recall.BucketWeekly {
			t.Fatalf("current city rollup %+v: want the weekly one, which took the newest entry in", c)
		}
		daily, err := r.CurrentRollups(ctx, recall.RollupFilter{BucketTypes: []string{recall.BucketDaily}})
		if err != nil || len(daily) != 2 {
			t.Fatalf("current daily rollups = %d, %v: want one per key", len(daily), err)
		}
		for _, x := range daily {
			if x.BucketType != recall.BucketDaily || !x.BucketStart.Equal(day0.AddDate(0, 0, 6)) {
				t.Fatalf("current daily rollup %s of %v: want the last day's", x.Key, x.BucketStart)
			}
		}
	})
	t.Run("SetSummary", func(t *testing.T) {
		r := stream(t, open(t))
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd}); err != nil {
			t.Fatal(err)
		}
		weekly, _ := r.FindRollups(ctx, recall.RollupFilter{BucketTypes: []string{recall.BucketWeekly}, Key: ptr("city")})
		w := weekly[0]
		ok, err := r.SetRollupSummary(ctx, w.ID, "Based in Berlin all week (reworded).", w.UpdatedAt.Add(-time.Second))
		if err != nil || ok {
			t.Fatalf("SetRollupSummary with a stale time = %v, %v: want no write", ok, err)
		}
		ok, err = r.SetRollupSummary(ctx, w.ID, "Based in Berlin all week (reworded).", w.UpdatedAt)
		if err != nil || !ok {
			t.Fatalf("SetRollupSummary = %v, %v", ok, err)
		}
		got, err := r.FindRollup(ctx, w.ID)
		if err != nil || got.Summary != "Based in Berlin all week (reworded)." {
			t.Fatalf("summary after SetRollupSummary = %q, %v", got.Summary, err)
		}
		hits, err := r.SearchRollups(ctx, recall.RollupFilter{Search: "reworded"})
		if err != nil || len(hits) != 1 || hits[0].Rollup.ID != w.ID {
			t.Fatalf("search for the new summary = %d hits, %v", len(hits), err)
		}
		if ok, err := r.SetRollupSummary(ctx, "no-such-rollup", "x", w.UpdatedAt); err != nil || ok {
			t.Fatalf("SetRollupSummary of an unknown id = %v, %v", ok, err)
		}
	})
	t.Run("Prune", func(t *testing.T) {
		r := stream(t, open(t))
		rep, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd.AddDate(0, 0, 30), Keep: map[string]time.Duration{recall.Bucket4h: 24 * time.Hour}})
		if err != nil || rep.Pruned != 14 {
			t.Fatalf("RunRollups keeping 4h rollups a day = %+v, %v: want all 14 pruned", rep, err)
		}
		if got, _ := r.FindRollups(ctx, recall.RollupFilter{BucketTypes: []string{recall.Bucket4h}, Status: ptr("*")}); len(got) != 0 {
			t.Fatalf("%d 4h rollups left", len(got))
		}
		if got, _ := r.FindRollups(ctx, recall.RollupFilter{BucketTypes: []string{recall.BucketDaily}, Status: ptr("*")}); len(got) != 14 {
			t.Fatalf("%d daily rollups left, want 14", len(got))
		}
	})
	t.Run("PruneDryRun", func(t *testing.T) {
		r := stream(t, open(t))
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd}); err != nil {
			t.Fatal(err)
		}
		before := len(all(t, r))
		rep, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd.AddDate(0, 0, 30), DryRun: true, Keep: map[string]time.Duration{recall.Bucket4h: 24 * time.Hour}})
		if err != nil || rep.Pruned != 14 {
			t.Fatalf("dry run with Keep = %+v, %v: want 14 counted", rep, err)
		}
		if n := len(all(t, r)); n != before {
			t.Fatalf("a dry run pruned: %d rollups, %d before", n, before)
		}
	})
	t.Run("LateEntry", func(t *testing.T) {
		st := open(t)
		r := stream(t, st)
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd}); err != nil {
			t.Fatal(err)
		}
		before := len(all(t, r))
		record(t, st, &recall.Observation{At: day0.AddDate(0, 0, 1).Add(13*time.Hour + 30*time.Minute), Type: "fact", Key: "city", Content: "lives in Berlin"})
		rep, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd})
		if err != nil || rep.Compacted != 1 {
			t.Fatalf("RunRollups with a late entry = %+v, %v", rep, err)
		}
		if n := len(all(t, r)); n != before {
			t.Fatalf("%d rollups after a late entry, %d before: want it merged into its buckets", n, before)
		}
		weekly, err := r.FindRollups(ctx, recall.RollupFilter{BucketTypes: []string{recall.BucketWeekly}, Key: ptr("city")})
		if err != nil || len(weekly) != 1 || weekly[0].Entries != 8 {
			t.Fatalf("weekly city rollup after a late entry = %v, %v: want 8 entries", weekly, err)
		}
		daily, err := r.FindRollups(ctx, recall.RollupFilter{BucketTypes: []string{recall.BucketDaily}, Key: ptr("city"), Since: ptr(day0.AddDate(0, 0, 1)), Until: ptr(day0.AddDate(0, 0, 2))})
		if err != nil || len(daily) != 1 || daily[0].Entries != 2 {
			t.Fatalf("daily city rollup of day 1 = %v, %v: want 2 entries", daily, err)
		}
	})
	t.Run("TierStats", func(t *testing.T) {
		st := open(t)
		r := stream(t, st)
		mustPut(t, st.Memories(), &recall.Memory{Content: "a note"})
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd}); err != nil {
			t.Fatal(err)
		}
		stats, err := r.TierStats(ctx)
		counts := countTiers(t, stats, err, func(s recall.TierStat) string { return s.Tier + "/" + s.Kind + "/" + s.Status })
		if counts["raw/observations/compacted"] != 14 || counts["raw/memories/active"] != 1 {
			t.Fatalf("raw tier counts %v: want 14 compacted observations and one memory", counts)
		}
		rolled := 0
		for _, s := range stats {
			if s.Tier == "rollup" {
				rolled += s.Count
			}
		}
		if rolled != len(all(t, r)) {
			t.Fatalf("TierStats counts %d rollups, FindRollups %d", rolled, len(all(t, r)))
		}
	})
	t.Run("CompressionStats", func(t *testing.T) {
		// The compression figures are TierStats' for the compacted raw
		// entries and the rollups, to the token.
		st := open(t)
		r := stream(t, st)
		mustPut(t, st.Memories(), &recall.Memory{Type: "fact", Title: "Office", Content: "The office is on the third floor.", OccurredAt: day0.Add(10 * time.Hour)})
		mustPut(t, st.Memories(), &recall.Memory{Content: "a note that stays raw"})
		type figures struct{ count, tokens, entries int }
		compare := func(t *testing.T) {
			t.Helper()
			tiers, err := r.TierStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]figures{}
			for _, s := range tiers {
				if s.Tier == "rollup" || s.Status == recall.StatusCompacted {
					want[s.Tier+"/"+s.Kind+"/"+s.Status] = figures{s.Count, s.Tokens, s.Entries}
				}
			}
			comp, err := r.CompressionStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]figures{}
			for _, s := range comp {
				got[s.Tier+"/"+s.Kind+"/"+s.Status] = figures{s.Count, s.Tokens, s.Entries}
			}
			if !maps.Equal(got, want) {
				t.Fatalf("CompressionStats %v, TierStats %v", got, want)
			}
		}
		compare(t)
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: weekEnd}); err != nil {
			t.Fatal(err)
		}
		comp, err := r.CompressionStats(ctx)
		kinds := countTiers(t, comp, err, func(s recall.TierStat) string { return s.Tier + "/" + s.Kind })
		if kinds["raw/observations"] != 14 || kinds["raw/memories"] != 1 || kinds["rollup/"+recall.Bucket4h] == 0 {
			t.Fatalf("CompressionStats counts %v: want 14 compacted observations, the compacted memory and 4h rollups", kinds)
		}
		compare(t)
	})
}

// countTiers sums the counts of stats (read with err) by key, leaving out
// those whose key is "".
func countTiers(t *testing.T, stats []recall.TierStat, err error, key func(recall.TierStat) string) map[string]int {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, s := range stats {
		if k := key(s); k != "" {
			out[k] += s.Count
		}
	}
	return out
}
