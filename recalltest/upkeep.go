package recalltest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TestUpkeep runs the contract of the store's care (StoreUpkeep): checks,
// orphans, counts, and a backup restored into another store of the same
// backend. open returns a fresh, empty store each call.
func TestUpkeep(t *testing.T, open func(t *testing.T) recall.Store) {
	ctx := context.Background()
	// fill writes some of everything: a memory with two versions, a
	// deleted one, observations, a session and rollups.
	fill := func(t *testing.T, st recall.Store) recall.BackupCounts {
		t.Helper()
		mem := st.Memories()
		m := mustPut(t, mem, &recall.Memory{Key: "editor", Content: "The editor is vim."})
		if _, err := mem.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("The editor is helix.")}); err != nil {
			t.Fatal(err)
		}
		d := mustPut(t, mem, &recall.Memory{Content: "gone but kept in history"})
		if err := mem.DeleteMemory(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
		if err := st.Sessions(recall.SessionOptions{}).EnsureSession(ctx, &recall.Session{ID: "s1", StartedAt: day0}); err != nil {
			t.Fatal(err)
		}
		record(t, st,
			&recall.Observation{At: day0.Add(9 * time.Hour), Type: "fact", Key: "city", Session: "s1", Content: "lives in Berlin"},
			&recall.Observation{At: day0.Add(10 * time.Hour), Type: "fact", Key: "city", Session: "s1", Content: "lives in Berlin"})
		rep, err := st.Rollups(policy(t)).RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 0, 2)})
		if err != nil {
			t.Fatal(err)
		}
		rolled := 0
		for _, n := range rep.Rollups {
			rolled += n
		}
		// A deleted memory is no longer counted; its history is, in
		// Versions.
		return recall.BackupCounts{Memories: 1, Versions: 4, Observations: 2, Sessions: 1, Rollups: int64(rolled)}
	}
	t.Run("Checks", func(t *testing.T) {
		st := open(t)
		fill(t, st)
		u := st.Upkeep()
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
		if _, ok := orphans[recall.OrphanObservations]; !ok {
			t.Fatalf("Orphans %v does not report %q", orphans, recall.OrphanObservations)
		}
		for kind, n := range orphans {
			if n != 0 {
				t.Errorf("a sound store has %d %s", n, kind)
			}
		}
		if u.Clock().IsZero() {
			t.Fatal("Clock is zero")
		}
	})
	t.Run("OrphanObservations", func(t *testing.T) {
		st := open(t)
		record(t, st,
			&recall.Observation{At: day0, Type: recall.ObsCommand, Session: "never-started", Content: "a"},
			&recall.Observation{At: day0, Type: recall.ObsCommand, Session: "never-started", Content: "b"},
			&recall.Observation{At: day0, Type: recall.ObsCommand, Content: "no session"})
		orphans, err := st.Upkeep().Orphans(ctx)
		if err != nil || orphans[recall.OrphanObservations] != 2 {
			t.Fatalf("Orphans = %v, %v: want the two observations of an unknown session", orphans, err)
		}
	})
	t.Run("Counts", func(t *testing.T) {
		st := open(t)
		if c, err := st.Upkeep().Counts(ctx); err != nil || !c.Empty() || c != (recall.BackupCounts{}) {
			t.Fatalf("Counts of a new store = %+v, %v", c, err)
		}
		want := fill(t, st)
		if c, err := st.Upkeep().Counts(ctx); err != nil || c != want {
			t.Fatalf("Counts = %+v, %v: want %+v", c, err, want)
		}
	})
	t.Run("BackupRestore", func(t *testing.T) {
		st, other := open(t), open(t)
		want := fill(t, st)
		path := filepath.Join(t.TempDir(), "backup")
		c, err := st.Upkeep().Backup(ctx, path)
		if err != nil || c != want {
			t.Fatalf("Backup = %+v, %v: want %+v", c, err, want)
		}
		if c, err := other.Upkeep().Restore(ctx, path, false); err != nil || c != want {
			t.Fatalf("Restore into an empty store = %+v, %v: want %+v", c, err, want)
		}
		if c, err := other.Upkeep().Counts(ctx); err != nil || c != want {
			t.Fatalf("Counts of the restored store = %+v, %v: want %+v", c, err, want)
		}
		m, err := other.Memories().FindMemory(ctx, "editor", "")
		if err != nil || m.Content != "The editor is helix." {
			t.Fatalf("the restored memory = %+v, %v", m, err)
		}
		if vs, err := other.Memories().MemoryVersions(ctx, m.ID); err != nil || len(vs) != 2 {
			t.Fatalf("the restored history = %d versions, %v", len(vs), err)
		}
		if err := other.Upkeep().Check(ctx); err != nil {
			t.Fatal(err)
		}
		// The restored store takes writes.
		mustPut(t, other.Memories(), &recall.Memory{Content: "after the restore"})
	})
	t.Run("RestoreOverData", func(t *testing.T) {
		st, other := open(t), open(t)
		want := fill(t, st)
		path := filepath.Join(t.TempDir(), "backup")
		if _, err := st.Upkeep().Backup(ctx, path); err != nil {
			t.Fatal(err)
		}
		mustPut(t, other.Memories(), &recall.Memory{Content: "would be lost"})
		_, err := other.Upkeep().Restore(ctx, path, false)
		wantCode(t, err, recall.ECONFLICT)
		if c, _ := other.Upkeep().Counts(ctx); c.Memories != 1 || c.Observations != 0 {
			t.Fatalf("a refused restore changed the store: %+v", c)
		}
		if c, err := other.Upkeep().Restore(ctx, path, true); err != nil || c != want {
			t.Fatalf("Restore with force = %+v, %v", c, err)
		}
		if ms, n, _ := other.Memories().FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")}); n != 1 || ms[0].Key != "editor" {
			t.Fatalf("%d memories after a forced restore, want the backup's one", n)
		}
	})
	t.Run("RestoreGarbage", func(t *testing.T) {
		st := open(t)
		mustPut(t, st.Memories(), &recall.Memory{Content: "kept"})
		path := filepath.Join(t.TempDir(), "garbage")
		if err := os.WriteFile(path, []byte("this is not a backup of anything"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := st.Upkeep().Restore(ctx, path, true)
		wantCode(t, err, recall.EINVALID)
		if c, _ := st.Upkeep().Counts(ctx); c.Memories != 1 {
			t.Fatalf("a refused restore changed the store: %+v", c)
		}
	})
}
