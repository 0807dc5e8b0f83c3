package recalltest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TestStore runs the contract of the store seam: every part a backend
// hands the engine (recall.Store), each over a fresh, empty store that
// open returns. It runs the MemoryService and ObservationService suites on
// the store's parts and checks the parts only a backend has: versions,
// full-text candidates, sessions, tier bookkeeping, forgetting, rollups
// and upkeep. A second backend passes it before the engine may use it.
func TestStore(t *testing.T, open func(t *testing.T) recall.Store) {
	t.Run("Memories", func(t *testing.T) {
		TestMemoryService(t, func(t *testing.T) recall.MemoryService { return open(t).Memories() })
	})
	t.Run("Observations", func(t *testing.T) {
		TestObservationService(t, func(t *testing.T) recall.ObservationService { return open(t).Observations() })
	})
	t.Run("VersionsAndText", func(t *testing.T) { testVersionsAndText(t, open(t)) })
	t.Run("Versions", func(t *testing.T) { TestVersions(t, open) })
	t.Run("SessionStore", func(t *testing.T) { TestSessions(t, open) })
	t.Run("TierStore", func(t *testing.T) { TestTiers(t, open) })
	t.Run("ForgetStore", func(t *testing.T) { TestForgetting(t, open) })
	t.Run("RollupStore", func(t *testing.T) { TestRollups(t, open) })
	t.Run("PinObservation", func(t *testing.T) { testPinObservation(t, open(t)) })
	t.Run("Sessions", func(t *testing.T) { testSessionStore(t, open(t)) })
	t.Run("Tiers", func(t *testing.T) { testTierStore(t, open(t)) })
	t.Run("Forgetting", func(t *testing.T) { testForgetStore(t, open(t)) })
	t.Run("Rollups", func(t *testing.T) { testRollupStore(t, open(t)) })
	t.Run("Upkeep", func(t *testing.T) { testUpkeep(t, open(t), open(t)) })
}

func testVersionsAndText(t *testing.T, st recall.Store) {
	ctx := context.Background()
	mem := st.Memories()
	m := mustPut(t, mem, &recall.Memory{Key: "release", Content: "Releases ship on Tuesdays."})
	content := "Releases ship on Thursdays."
	if _, err := mem.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: &content}); err != nil {
		t.Fatal(err)
	}
	v1, err := mem.MemoryVersion(ctx, m.ID, 1)
	if err != nil || v1.Content != "Releases ship on Tuesdays." {
		t.Fatalf("MemoryVersion(1) = %+v, %v", v1, err)
	}
	_, err = mem.MemoryVersion(ctx, m.ID, 9)
	wantCode(t, err, recall.ENOTFOUND)
	asOf, err := mem.MemoriesAsOf(ctx, time.Now().Add(time.Hour))
	if err != nil || len(asOf) != 1 || asOf[0].Content != content {
		t.Fatalf("MemoriesAsOf(later) = %v, %v: want the current version", asOf, err)
	}
	hits, err := mem.Search(ctx, recall.SearchQuery{Text: "thursdays", Limit: 5})
	if err != nil || len(hits) != 1 || hits[0].Memory.ID != m.ID {
		t.Fatalf("text candidates for a word of the memory = %v, %v", hits, err)
	}
	if hits, err := mem.Search(ctx, recall.SearchQuery{Text: "tuesdays", Limit: 5}); err != nil || len(hits) != 0 {
		t.Fatalf("text candidates for a word of an old version = %v, %v: want none", hits, err)
	}
}

func testPinObservation(t *testing.T, st recall.Store) {
	ctx := context.Background()
	obs := []*recall.Observation{{Type: recall.ObsCommand, Content: "make test"}}
	if err := st.Observations().RecordObservations(ctx, obs); err != nil {
		t.Fatal(err)
	}
	if err := st.Observations().PinObservation(ctx, obs[0].ID, true); err != nil {
		t.Fatal(err)
	}
	wantCode(t, st.Observations().PinObservation(ctx, obs[0].ID+100, true), recall.ENOTFOUND)
}

func testSessionStore(t *testing.T, st recall.Store) {
	ctx := context.Background()
	s := st.Sessions(recall.SessionOptions{HotSessions: 1})
	if err := s.EnsureSession(ctx, &recall.Session{ID: "s1", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureSession(ctx, &recall.Session{ID: "s1", Agent: "test"}); err != nil {
		t.Fatalf("a second EnsureSession of the same id: %v", err)
	}
	if _, err := s.StartSession(ctx, &recall.Session{ID: "s2", Agent: "test"}); err != nil {
		t.Fatal(err)
	}
	end, err := s.EndSession(ctx, recall.SessionEnd{ID: "s2", Summary: "did things"})
	if err != nil || end.Summary != "did things" || end.EndedAt == nil {
		t.Fatalf("EndSession = %+v, %v", end, err)
	}
	all, err := s.FindSessions(ctx, 0)
	if err != nil || len(all) != 2 {
		t.Fatalf("FindSessions = %d sessions, %v: want 2", len(all), err)
	}
}

func testTierStore(t *testing.T, st recall.Store) {
	ctx := context.Background()
	tiers := st.Tiers()
	if v, err := tiers.StoreMeta(ctx, "contract.key"); err != nil || v != "" {
		t.Fatalf("StoreMeta of an unset key = %q, %v", v, err)
	}
	if err := tiers.ApplyTierChanges(ctx, recall.TierChanges{Op: "sync", Meta: map[string]string{"contract.key": "set"}}); err != nil {
		t.Fatal(err)
	}
	if v, err := tiers.StoreMeta(ctx, "contract.key"); err != nil || v != "set" {
		t.Fatalf("StoreMeta after ApplyTierChanges = %q, %v", v, err)
	}
	recs, err := tiers.SyncRecords(ctx)
	if err != nil || len(recs) != 0 {
		t.Fatalf("SyncRecords of a new store = %v, %v", recs, err)
	}
}

func testForgetStore(t *testing.T, st recall.Store) {
	ctx := context.Background()
	f := st.Forgetting()
	mustPut(t, st.Memories(), &recall.Memory{Content: "the password is swordfish"})
	mustPut(t, st.Memories(), &recall.Memory{Content: "nothing to hide"})
	_, err := f.PlanPurge(ctx, recall.PurgeCriteria{}, 5)
	wantCode(t, err, recall.EINVALID)
	c := recall.PurgeCriteria{Search: "swordfish", Memories: true}
	plan, err := f.PlanPurge(ctx, c, 5)
	if err != nil || plan.Memories != 1 {
		t.Fatalf("PlanPurge = %+v, %v: want one memory", plan, err)
	}
	if rep, err := f.Purge(ctx, c); err != nil || rep.Memories != 1 {
		t.Fatalf("Purge = %+v, %v", rep, err)
	}
	stats, err := f.StoreStats(ctx, time.Now())
	if err != nil || stats.Memories != 1 {
		t.Fatalf("StoreStats = %+v, %v: want the one memory left", stats, err)
	}
	rep, err := f.Sweep(ctx, recall.RetentionPolicy{}, time.Now(), true)
	if err != nil || rep.Deleted != 0 {
		t.Fatalf("a dry-run sweep without a policy = %+v, %v", rep, err)
	}
}

func testRollupStore(t *testing.T, st recall.Store) {
	ctx := context.Background()
	r := st.Rollups(nil)
	if _, err := r.TierStats(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := r.FindRollup(ctx, "no-such-rollup")
	wantCode(t, err, recall.ENOTFOUND)
}

func testUpkeep(t *testing.T, st, other recall.Store) {
	ctx := context.Background()
	u := st.Upkeep()
	mustPut(t, st.Memories(), &recall.Memory{Content: "backed up"})
	if err := u.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if err := u.QuickCheck(ctx); err != nil {
		t.Fatal(err)
	}
	orphans, err := u.Orphans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for kind, n := range orphans {
		if n != 0 {
			t.Errorf("a new store has %d %s", n, kind)
		}
	}
	path := filepath.Join(t.TempDir(), "backup")
	c, err := u.Backup(ctx, path)
	if err != nil || c.Memories != 1 || c.Empty() {
		t.Fatalf("Backup = %+v, %v", c, err)
	}
	if c, err := other.Upkeep().Restore(ctx, path, false); err != nil || c.Memories != 1 {
		t.Fatalf("Restore into an empty store = %+v, %v", c, err)
	}
	ms, n, err := other.Memories().FindMemories(ctx, recall.MemoryFilter{})
	if err != nil || n != 1 || !strings.Contains(ms[0].Content, "backed up") {
		t.Fatalf("the restored store holds %d memories, %v", n, err)
	}
	if u.Clock().IsZero() {
		t.Fatal("Clock is zero")
	}
}

// TestVectorStore runs the contract of a store's vectors. open must return
// a fresh, empty store that embeds every write inline with an embedder
// that places texts sharing words near each other.
func TestVectorStore(t *testing.T, open func(t *testing.T) recall.Store) {
	ctx := context.Background()
	st := open(t)
	v := st.Vectors()
	if v == nil {
		t.Fatal("Vectors() is nil on a store opened with an embedder")
	}
	if !v.EmbedsInline() || v.EmbedderModel() == "" {
		t.Fatalf("EmbedsInline %v, EmbedderModel %q: want inline and a model", v.EmbedsInline(), v.EmbedderModel())
	}
	deploy := mustPut(t, st.Memories(), &recall.Memory{Content: "deploy through staging first"})
	mustPut(t, st.Memories(), &recall.Memory{Content: "the editor is helix"})
	stats, err := v.VectorStats(ctx)
	if err != nil || stats.Memories != 2 || stats.Embedded != 2 || stats.Queued != 0 {
		t.Fatalf("VectorStats = %+v, %v: want both memories embedded, none queued", stats, err)
	}
	hits, err := v.SearchVectors(ctx, "staging deploy", 1)
	if err != nil || len(hits) != 1 || hits[0].MemoryID != deploy.ID {
		t.Fatalf("SearchVectors = %+v, %v: want %s", hits, err, deploy.ID)
	}
	if err := v.DrainQueue(ctx, time.Second); err != nil || v.QueuedHere() != 0 {
		t.Fatalf("DrainQueue with nothing queued: %v, queued here %d", err, v.QueuedHere())
	}
	res, err := v.Reindex(ctx, recall.ReindexOptions{All: true})
	if err != nil || res.Total != 2 || res.Embedded != 2 {
		t.Fatalf("Reindex(All) = %+v, %v: want both memories", res, err)
	}
}
