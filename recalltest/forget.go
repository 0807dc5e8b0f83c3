package recalltest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rollup"
)

// TestForgetting runs the contract of forgetting (ForgetStore): purge on
// request, which leaves no trace of what it matched, sweep by policy, and
// the statistics. open returns a fresh, empty store.
func TestForgetting(t *testing.T, open func(t *testing.T) recall.Store) {
	t.Run("Purge", func(t *testing.T) { testPurge(t, open) })
	t.Run("Sweep", func(t *testing.T) { testSweep(t, open) })
	t.Run("Stats", func(t *testing.T) { testStats(t, open) })
}

// day0 is a Monday, the start of the observations the suites record.
var day0 = time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)

func record(t *testing.T, st recall.Store, obs ...*recall.Observation) []*recall.Observation {
	t.Helper()
	if err := st.Observations().RecordObservations(context.Background(), obs); err != nil {
		t.Fatal(err)
	}
	return obs
}

func countObs(t *testing.T, st recall.Store, f recall.ObservationFilter) int {
	t.Helper()
	_, n, err := st.Observations().FindObservations(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func policy(t *testing.T) recall.RollupPolicy {
	t.Helper()
	p, err := rollup.NewPolicy("UTC")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func testPurge(t *testing.T, open func(t *testing.T) recall.Store) {
	ctx := context.Background()
	t.Run("Invalid", func(t *testing.T) {
		f := open(t).Forgetting()
		for _, c := range []recall.PurgeCriteria{
			{},
			{Memories: true},
			{Memories: true, Session: "s1"},
			{MemoryID: recall.NewID()},
			{Search: "x", Match: "fuzzy"},
		} {
			_, err := f.PlanPurge(ctx, c, 5)
			wantCode(t, err, recall.EINVALID)
			_, err = f.Purge(ctx, c)
			wantCode(t, err, recall.EINVALID)
		}
	})
	t.Run("PlanChangesNothing", func(t *testing.T) {
		st := open(t)
		record(t, st,
			&recall.Observation{At: day0, Type: recall.ObsCommand, Session: "s1", Content: "export TOKEN=hunter2"},
			&recall.Observation{At: day0.Add(time.Hour), Type: recall.ObsCommand, Session: "s1", Content: "make test"})
		plan, err := st.Forgetting().PlanPurge(ctx, recall.PurgeCriteria{Search: "hunter2"}, 5)
		if err != nil || !plan.DryRun || plan.Target != recall.PurgeObservations || plan.Observations != 1 || plan.Matched() != 1 {
			t.Fatalf("PlanPurge = %+v, %v: want one observation, a dry run", plan, err)
		}
		if len(plan.Sample) != 1 || plan.Sample[0].Session != "s1" {
			t.Fatalf("sample %+v", plan.Sample)
		}
		if strings.Contains(plan.Criteria, "hunter2") {
			t.Fatalf("the report's criteria %q hold the search text", plan.Criteria)
		}
		if n := countObs(t, st, recall.ObservationFilter{}); n != 2 {
			t.Fatalf("%d observations after a plan, want 2", n)
		}
	})
	t.Run("Observations", func(t *testing.T) {
		st := open(t)
		if err := st.Sessions(recall.SessionOptions{}).EnsureSession(ctx, &recall.Session{ID: "s1", StartedAt: day0}); err != nil {
			t.Fatal(err)
		}
		record(t, st,
			&recall.Observation{At: day0, Type: recall.ObsCommand, Session: "s1", Project: "a", Content: "export TOKEN=hunter2"},
			&recall.Observation{At: day0.Add(time.Hour), Type: recall.ObsCommand, Session: "s1", Project: "a", Content: "make test"},
			&recall.Observation{At: day0.Add(2 * time.Hour), Type: recall.ObsFileRead, Session: "s2", Project: "b", Content: "read main.go"})
		rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Search: "hunter2"})
		if err != nil || rep.DryRun || rep.Observations != 1 {
			t.Fatalf("Purge = %+v, %v", rep, err)
		}
		if n := countObs(t, st, recall.ObservationFilter{Search: "hunter2"}); n != 0 {
			t.Fatalf("the purged text is still found in %d observations", n)
		}
		if n := countObs(t, st, recall.ObservationFilter{}); n != 2 {
			t.Fatalf("%d observations left, want 2", n)
		}
		// Filters combine with AND.
		rep, err = st.Forgetting().Purge(ctx, recall.PurgeCriteria{Project: "b", Session: "s1"})
		if err != nil || rep.Observations != 0 {
			t.Fatalf("Purge of project b and session s1 = %+v, %v: want nothing", rep, err)
		}
		before := day0.Add(90 * time.Minute)
		rep, err = st.Forgetting().Purge(ctx, recall.PurgeCriteria{Before: &before})
		if err != nil || rep.Observations != 1 {
			t.Fatalf("Purge --before = %+v, %v: want the one earlier observation", rep, err)
		}
		if got, _, _ := st.Observations().FindObservations(ctx, recall.ObservationFilter{}); len(got) != 1 || got[0].Content != "read main.go" {
			t.Fatalf("left %+v", got)
		}
	})
	t.Run("WholeSession", func(t *testing.T) {
		st := open(t)
		s := st.Sessions(recall.SessionOptions{})
		for _, id := range []string{"s1", "s2", "quiet"} {
			if _, err := s.EndSession(ctx, recall.SessionEnd{ID: id, Summary: "summary of " + id}); err != nil {
				t.Fatal(err)
			}
		}
		record(t, st,
			&recall.Observation{At: day0, Type: recall.ObsCommand, Session: "s1", Content: "a"},
			&recall.Observation{At: day0, Type: recall.ObsCommand, Session: "s1", Content: "b"},
			&recall.Observation{At: day0, Type: recall.ObsCommand, Session: "s2", Content: "c"})
		c := recall.PurgeCriteria{Session: "s1"}
		plan, err := st.Forgetting().PlanPurge(ctx, c, 5)
		if err != nil || plan.Observations != 2 || plan.Sessions != 1 {
			t.Fatalf("PlanPurge --session = %+v, %v: want two observations and the session", plan, err)
		}
		rep, err := st.Forgetting().Purge(ctx, c)
		if err != nil || rep.Observations != 2 || rep.Sessions != 1 {
			t.Fatalf("Purge --session = %+v, %v: want two observations and the session", rep, err)
		}
		all, _ := s.FindSessions(ctx, 0)
		if got := sessionIDs(all); len(got) != 2 || slices.Contains(got, "s1") {
			t.Fatalf("sessions left %v: want the purged session gone, summary and all", got)
		}
		// A session without observations goes when named.
		if plan, err := st.Forgetting().PlanPurge(ctx, recall.PurgeCriteria{Session: "quiet"}, 5); err != nil || plan.Sessions != 1 {
			t.Fatalf("PlanPurge of a session without observations = %+v, %v: want it counted", plan, err)
		}
		if rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Session: "quiet"}); err != nil || rep.Sessions != 1 {
			t.Fatalf("Purge of a session without observations = %+v, %v", rep, err)
		}
	})
	t.Run("ByID", func(t *testing.T) {
		st := open(t)
		obs := record(t, st,
			&recall.Observation{At: day0, Type: recall.ObsCommand, Content: "one"},
			&recall.Observation{At: day0, Type: recall.ObsCommand, Content: "two"})
		rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{ObservationID: obs[1].ID})
		if err != nil || rep.Observations != 1 {
			t.Fatalf("Purge --id = %+v, %v", rep, err)
		}
		if n := countObs(t, st, recall.ObservationFilter{ID: &obs[1].ID}); n != 0 {
			t.Fatal("the purged observation is still there")
		}
		if n := countObs(t, st, recall.ObservationFilter{ID: &obs[0].ID}); n != 1 {
			t.Fatal("the other observation went too")
		}
	})
	t.Run("PinnedObservation", func(t *testing.T) {
		st := open(t)
		obs := record(t, st, &recall.Observation{At: day0, Type: recall.ObsCommand, Content: "landmark with hunter2"})
		if err := st.Observations().PinObservation(ctx, obs[0].ID, true); err != nil {
			t.Fatal(err)
		}
		if rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Search: "hunter2"}); err != nil || rep.Observations != 1 {
			t.Fatalf("Purge of a landmark = %+v, %v: an explicit purge removes landmarks too", rep, err)
		}
	})
	t.Run("MemoryEveryVersion", func(t *testing.T) {
		st := open(t)
		mem := st.Memories()
		m := mustPut(t, mem, &recall.Memory{Key: "db", Content: "the database password is swordfish"})
		if _, err := mem.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("the database password is in the vault")}); err != nil {
			t.Fatal(err)
		}
		other := mustPut(t, mem, &recall.Memory{Content: "nothing to hide"})
		c := recall.PurgeCriteria{Search: "swordfish", Memories: true}
		plan, err := st.Forgetting().PlanPurge(ctx, c, 5)
		if err != nil || plan.Target != recall.PurgeMemories || plan.Memories != 1 || plan.Versions != 2 {
			t.Fatalf("PlanPurge = %+v, %v: want the memory matched by an old version, with both versions", plan, err)
		}
		rep, err := st.Forgetting().Purge(ctx, c)
		if err != nil || rep.Memories != 1 || rep.Versions != 2 {
			t.Fatalf("Purge = %+v, %v", rep, err)
		}
		gone(t, st, m.ID, "swordfish")
		if _, err := mem.FindMemory(ctx, other.ID, ""); err != nil {
			t.Fatalf("the other memory: %v", err)
		}
	})
	t.Run("DeletedMemory", func(t *testing.T) {
		st := open(t)
		m := mustPut(t, st.Memories(), &recall.Memory{Content: "api key AKIAIOSFODNN7EXAMPLE"})
		if err := st.Memories().DeleteMemory(ctx, m.ID); err != nil {
			t.Fatal(err)
		}
		c := recall.PurgeCriteria{Search: "AKIA", Match: recall.MatchPrefix, Memories: true}
		plan, err := st.Forgetting().PlanPurge(ctx, c, 5)
		if err != nil || plan.Memories != 1 || len(plan.Sample) != 1 || !plan.Sample[0].Deleted {
			t.Fatalf("PlanPurge of a deleted memory = %+v, %v: want it, marked deleted", plan, err)
		}
		if _, err := st.Forgetting().Purge(ctx, c); err != nil {
			t.Fatal(err)
		}
		gone(t, st, m.ID, "AKIAIOSFODNN7EXAMPLE")
	})
	t.Run("MemoryByID", func(t *testing.T) {
		st := open(t)
		m := mustPut(t, st.Memories(), &recall.Memory{Content: "forget me"})
		keep := mustPut(t, st.Memories(), &recall.Memory{Content: "forget me not"})
		if rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{MemoryID: m.ID, Memories: true}); err != nil || rep.Memories != 1 {
			t.Fatalf("Purge --id --memories = %+v, %v", rep, err)
		}
		if _, err := st.Memories().FindMemory(ctx, m.ID, ""); recall.ErrorCode(err) != recall.ENOTFOUND {
			t.Fatalf("FindMemory of the purged memory: %v", err)
		}
		if _, err := st.Memories().FindMemory(ctx, keep.ID, ""); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("Wider", func(t *testing.T) {
		st := open(t)
		record(t, st, &recall.Observation{At: day0, Type: recall.ObsCommand, Content: "aws AKIAIOSFODNN7EXAMPLE"})
		plan, err := st.Forgetting().PlanPurge(ctx, recall.PurgeCriteria{Search: "AKIA"}, 5)
		if err != nil || plan.Observations != 0 || plan.Wider == nil || plan.Wider.Match != recall.MatchPrefix || plan.Wider.Matches != 1 {
			t.Fatalf("PlanPurge by whole words = %+v, %v: want nothing, and the prefix rule offered", plan, err)
		}
	})
	t.Run("SessionText", func(t *testing.T) {
		st := open(t)
		s := st.Sessions(recall.SessionOptions{})
		if _, err := s.EndSession(ctx, recall.SessionEnd{ID: "s1", Summary: "rotated the hunter2 secret", Learned: "hunter2 was weak"}); err != nil {
			t.Fatal(err)
		}
		record(t, st, &recall.Observation{At: day0, Type: recall.ObsCommand, Session: "s1", Content: "echo hunter2"})
		plan, err := st.Forgetting().PlanPurge(ctx, recall.PurgeCriteria{Search: "hunter2"}, 5)
		if err != nil || plan.SessionTexts != 1 || plan.Observations != 1 {
			t.Fatalf("PlanPurge = %+v, %v: want the observation and the session's text counted", plan, err)
		}
		rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Search: "hunter2"})
		if err != nil || rep.Observations != 1 || rep.SessionTexts != 1 {
			t.Fatalf("Purge = %+v, %v: want the observation and the session's text", rep, err)
		}
		all, err := s.FindSessions(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range all {
			if strings.Contains(x.Summary+x.Learned, "hunter2") {
				t.Fatalf("session %s still holds the purged text: %+v", x.ID, x)
			}
		}
	})
	t.Run("RollupText", func(t *testing.T) {
		st := open(t)
		for d := 0; d < 3; d++ {
			record(t, st,
				&recall.Observation{At: day0.AddDate(0, 0, d).Add(9 * time.Hour), Type: "fact", Key: "vault", Content: "vault code is zebra42"},
				&recall.Observation{At: day0.AddDate(0, 0, d).Add(10 * time.Hour), Type: "fact", Key: "city", Content: "lives in Berlin"})
		}
		r := st.Rollups(policy(t))
		if rep, err := r.RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 0, 8)}); err != nil || rep.Compacted != 6 {
			t.Fatalf("RunRollups = %+v, %v", rep, err)
		}
		if hits, err := r.FindRollups(ctx, recall.RollupFilter{Search: "zebra42", Status: ptr("*")}); err != nil || len(hits) == 0 {
			t.Fatalf("rollups holding the text before the purge: %d, %v", len(hits), err)
		}
		plan, err := st.Forgetting().PlanPurge(ctx, recall.PurgeCriteria{Search: "zebra42"}, 5)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Search: "zebra42"})
		if err == nil && (plan.Rollups != rep.Rollups || plan.Observations != rep.Observations) {
			t.Fatalf("PlanPurge counted %d observations and %d rollups, Purge removed %d and %d", plan.Observations, plan.Rollups, rep.Observations, rep.Rollups)
		}
		if err != nil || rep.Observations != 3 || rep.Rollups == 0 {
			t.Fatalf("Purge = %+v, %v: want three observations and their rollups", rep, err)
		}
		all, err := r.FindRollups(ctx, recall.RollupFilter{Status: ptr("*")})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range all {
			if strings.Contains(x.Summary+x.Value, "zebra42") {
				t.Fatalf("rollup %s %s still holds the purged text: %q", x.BucketType, x.ID, x.Summary)
			}
			for _, v := range x.Values {
				if strings.Contains(v.Text, "zebra42") {
					t.Fatalf("rollup %s tallies the purged text", x.ID)
				}
			}
		}
		if hits, err := r.SearchRollups(ctx, recall.RollupFilter{Search: "zebra42"}); err != nil || len(hits) != 0 {
			t.Fatalf("SearchRollups after the purge = %d hits, %v", len(hits), err)
		}
	})
	t.Run("RollupSourceReRolled", func(t *testing.T) {
		st := open(t)
		obs := record(t, st,
			&recall.Observation{At: day0.Add(9 * time.Hour), Type: "fact", Key: "vault", Content: "vault code is zebra42"},
			&recall.Observation{At: day0.Add(10 * time.Hour), Type: "fact", Key: "vault", Content: "vault code is lion7"})
		r := st.Rollups(policy(t))
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 0, 2)}); err != nil {
			t.Fatal(err)
		}
		rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{ObservationID: obs[0].ID})
		if err != nil || rep.Observations != 1 || rep.Rollups == 0 {
			t.Fatalf("Purge of a rolled-up observation = %+v, %v: want its rollups gone", rep, err)
		}
		// The other source goes back to be rolled up again, without the
		// purged one.
		if n := countObs(t, st, recall.ObservationFilter{Status: ptr("active")}); n != 1 {
			t.Fatalf("%d active observations after the purge, want the other source back", n)
		}
		if _, err := r.RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 0, 2)}); err != nil {
			t.Fatal(err)
		}
		all, err := r.FindRollups(ctx, recall.RollupFilter{Status: ptr("*"), Key: ptr("vault")})
		if err != nil || len(all) == 0 {
			t.Fatalf("rollups after rolling again = %d, %v", len(all), err)
		}
		for _, x := range all {
			if strings.Contains(x.Summary+x.Value, "zebra42") || x.Entries != 1 {
				t.Fatalf("rollup %s %q (%d entries): want only the other source", x.BucketType, x.Summary, x.Entries)
			}
		}
	})
	t.Run("MemoryRollup", func(t *testing.T) {
		st := open(t)
		for d := 0; d < 2; d++ {
			mustPut(t, st.Memories(), &recall.Memory{Type: "fact", Content: "the vault code is zebra42", OccurredAt: day0.AddDate(0, 0, d).Add(9 * time.Hour)})
		}
		r := st.Rollups(policy(t))
		if rep, err := r.RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 0, 3)}); err != nil || rep.Compacted != 2 {
			t.Fatalf("RunRollups of typed memories = %+v, %v", rep, err)
		}
		plan, err := st.Forgetting().PlanPurge(ctx, recall.PurgeCriteria{Search: "zebra42", Memories: true}, 5)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Search: "zebra42", Memories: true})
		if err == nil && (plan.Rollups != rep.Rollups || plan.Memories != rep.Memories || plan.Versions != rep.Versions) {
			t.Fatalf("PlanPurge = %+v, Purge = %+v: want the same counts", plan, rep)
		}
		if err != nil || rep.Memories != 2 || rep.Rollups == 0 {
			t.Fatalf("Purge = %+v, %v: want both memories and their rollups", rep, err)
		}
		all, _ := r.FindRollups(ctx, recall.RollupFilter{Status: ptr("*")})
		for _, x := range all {
			if strings.Contains(x.Summary+x.Value, "zebra42") {
				t.Fatalf("rollup %s still holds the purged text", x.ID)
			}
		}
	})
	t.Run("TypeOlderThan", func(t *testing.T) {
		st := open(t)
		now := day0.AddDate(0, 0, 100)
		record(t, st,
			&recall.Observation{At: now.AddDate(0, 0, -95), Type: recall.ObsFileRead, Content: "old read"},
			&recall.Observation{At: now.AddDate(0, 0, -5), Type: recall.ObsFileRead, Content: "new read"},
			&recall.Observation{At: now.AddDate(0, 0, -95), Type: recall.ObsCommand, Content: "old command"})
		days := 90
		cut := now.AddDate(0, 0, -days)
		_, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Type: recall.ObsFileRead, OlderThanDays: &days})
		wantCode(t, err, recall.EINVALID) // not resolved into a cutoff
		rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Type: recall.ObsFileRead, OlderThanDays: &days, Cutoff: &cut})
		if err != nil || rep.Observations != 1 {
			t.Fatalf("Purge --type --older-than = %+v, %v: want the old read only", rep, err)
		}
		stats, err := st.Forgetting().StoreStats(ctx, now)
		if err != nil || stats.Observations != 2 || stats.ObservationsByType[recall.ObsFileRead] != 1 || stats.ObservationsByType[recall.ObsCommand] != 1 {
			t.Fatalf("StoreStats after the purge = %+v, %v", stats, err)
		}
	})
	t.Run("MemoryProject", func(t *testing.T) {
		st := open(t)
		a := mustPut(t, st.Memories(), &recall.Memory{Content: "alpha note", Project: "a"})
		mustPut(t, st.Memories(), &recall.Memory{Content: "beta note", Project: "b"})
		rep, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Project: "a", Memories: true})
		if err != nil || rep.Memories != 1 {
			t.Fatalf("Purge --project --memories = %+v, %v", rep, err)
		}
		gone(t, st, a.ID, "alpha")
		stats, err := st.Forgetting().StoreStats(ctx, time.Now())
		if err != nil || stats.Memories != 1 || stats.Versions != 1 {
			t.Fatalf("StoreStats after the purge = %+v, %v: want one memory with one version", stats, err)
		}
	})
	t.Run("Audit", func(t *testing.T) {
		st := open(t)
		record(t, st, &recall.Observation{At: day0, Type: recall.ObsCommand, Content: "x"})
		if _, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Type: recall.ObsCommand, Before: ptr(day0.Add(time.Hour))}); err != nil {
			t.Fatal(err)
		}
		stats, err := st.Forgetting().StoreStats(ctx, time.Now())
		if err != nil || stats.LastPurge == nil {
			t.Fatalf("StoreStats after a purge = %+v, %v: want LastPurge", stats, err)
		}
	})
}

// gone checks that the memory id and the text left no trace: no memory,
// no version, no history, no full-text candidate.
func gone(t *testing.T, st recall.Store, id, text string) {
	t.Helper()
	ctx := context.Background()
	mem := st.Memories()
	if _, err := mem.FindMemory(ctx, id, ""); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("FindMemory of a purged memory: %v, want ENOTFOUND", err)
	}
	if _, err := mem.MemoryVersions(ctx, id); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("MemoryVersions of a purged memory: %v, want ENOTFOUND", err)
	}
	if _, err := mem.MemoryVersion(ctx, id, 1); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("MemoryVersion of a purged memory: %v, want ENOTFOUND", err)
	}
	all, _, err := mem.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		if m.ID == id || strings.Contains(m.Content, text) {
			t.Fatalf("a purged memory is still listed: %+v", m)
		}
	}
	asOf, err := mem.MemoriesAsOf(ctx, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range asOf {
		if m.ID == id {
			t.Fatal("a purged memory is still in the history")
		}
	}
	hits, err := mem.Search(ctx, recall.SearchQuery{Text: text, Limit: 10, Filter: recall.MemoryFilter{Status: ptr("*")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 0 {
		t.Fatalf("the purged text is still a full-text candidate: %d hits", len(hits))
	}
}
