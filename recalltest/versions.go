package recalltest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TestVersions runs the contract of a memory's history: every change writes
// the next version, old versions stay readable one by one (VersionReader)
// and as of a time (HistoryReader). open returns a fresh, empty store.
func TestVersions(t *testing.T, open func(t *testing.T) recall.Store) {
	ctx := context.Background()
	// history writes three versions of one memory (put, update, delete)
	// with a pause between them, so that each has its own change time at
	// the millisecond a backend may store.
	history := func(t *testing.T, mem recall.MemoryStore) (*recall.Memory, []*recall.MemoryVersion) {
		t.Helper()
		m := mustPut(t, mem, &recall.Memory{Key: "editor", Content: "The editor is vim."})
		time.Sleep(5 * time.Millisecond)
		if _, err := mem.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("The editor is helix.")}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		if err := mem.DeleteMemory(ctx, m.ID); err != nil {
			t.Fatal(err)
		}
		vs, err := mem.MemoryVersions(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		return m, vs
	}
	t.Run("GapFree", func(t *testing.T) {
		mem := open(t).Memories()
		m, _ := history(t, mem)
		if _, err := mem.RestoreMemory(ctx, m.ID, 1); err != nil {
			t.Fatal(err)
		}
		vs, err := mem.MemoryVersions(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		ops := []string{"put", "update", "delete", "restore"}
		if len(vs) != len(ops) {
			t.Fatalf("%d versions, want %d", len(vs), len(ops))
		}
		for i, v := range vs {
			if v.Version != i+1 || v.MemoryID != m.ID || v.Op != ops[i] || v.Memory == nil || v.ChangedAt.IsZero() {
				t.Fatalf("version %d = %+v, want number %d, op %s, a snapshot and a time", i, v, i+1, ops[i])
			}
			if i > 0 && v.ChangedAt.Before(vs[i-1].ChangedAt) {
				t.Fatalf("version %d changed before version %d", v.Version, vs[i-1].Version)
			}
		}
		if vs[3].Memory.Content != "The editor is vim." {
			t.Fatalf("restored snapshot %q, want version 1's content", vs[3].Memory.Content)
		}
		asOf, err := mem.MemoriesAsOf(ctx, vs[3].ChangedAt)
		if err != nil || len(asOf) != 1 || asOf[0].Content != "The editor is vim." || asOf[0].Version != 4 {
			t.Fatalf("as of the restore = %v, %v: want the restored memory at version 4", asOf, err)
		}
	})
	t.Run("ReadVersion", func(t *testing.T) {
		mem := open(t).Memories()
		m, _ := history(t, mem)
		for n, want := range map[int]string{1: "The editor is vim.", 2: "The editor is helix."} {
			got, err := mem.MemoryVersion(ctx, m.ID, n)
			if err != nil || got.Content != want || got.ID != m.ID || got.Version != n {
				t.Fatalf("MemoryVersion(%d) = %+v, %v: want %q as version %d", n, got, err, want, n)
			}
		}
	})
	t.Run("ReadVersionNotFound", func(t *testing.T) {
		mem := open(t).Memories()
		m := mustPut(t, mem, &recall.Memory{Content: "one version"})
		for _, n := range []int{0, 2, -1} {
			_, err := mem.MemoryVersion(ctx, m.ID, n)
			wantCode(t, err, recall.ENOTFOUND)
		}
		_, err := mem.MemoryVersion(ctx, recall.NewID(), 1)
		wantCode(t, err, recall.ENOTFOUND)
		_, err = mem.MemoryVersions(ctx, recall.NewID())
		wantCode(t, err, recall.ENOTFOUND)
	})
	t.Run("AsOf", func(t *testing.T) {
		mem := open(t).Memories()
		m, vs := history(t, mem)
		if len(vs) != 3 {
			t.Fatalf("%d versions, want 3", len(vs))
		}
		asOf := func(at time.Time) []*recall.Memory {
			t.Helper()
			ms, err := mem.MemoriesAsOf(ctx, at)
			if err != nil {
				t.Fatal(err)
			}
			return ms
		}
		if ms := asOf(vs[0].ChangedAt.Add(-time.Second)); len(ms) != 0 {
			t.Fatalf("as of before the memory existed: %d memories", len(ms))
		}
		for i, want := range []string{"The editor is vim.", "The editor is helix."} {
			ms := asOf(vs[i].ChangedAt)
			if len(ms) != 1 || ms[0].ID != m.ID || ms[0].Content != want {
				t.Fatalf("as of version %d's change time = %v, want %q", i+1, ms, want)
			}
		}
		if ms := asOf(vs[2].ChangedAt); len(ms) != 0 {
			t.Fatalf("as of the deletion: %d memories, want none", len(ms))
		}
		if ms := asOf(vs[2].ChangedAt.Add(time.Hour)); len(ms) != 0 {
			t.Fatalf("as of after the deletion: %d memories, want none", len(ms))
		}
	})
	t.Run("AsOfManyMemories", func(t *testing.T) {
		mem := open(t).Memories()
		a := mustPut(t, mem, &recall.Memory{Content: "first"})
		time.Sleep(5 * time.Millisecond)
		b := mustPut(t, mem, &recall.Memory{Content: "second"})
		va, _ := mem.MemoryVersions(ctx, a.ID)
		vb, _ := mem.MemoryVersions(ctx, b.ID)
		ms, err := mem.MemoriesAsOf(ctx, va[0].ChangedAt)
		if err != nil || len(ms) != 1 || ms[0].ID != a.ID {
			t.Fatalf("as of the first put = %v, %v: want only the first", ids(ms), err)
		}
		ms, err = mem.MemoriesAsOf(ctx, vb[0].ChangedAt)
		if err != nil || !slices.Equal(ids(ms), sorted(a.ID, b.ID)) {
			t.Fatalf("as of the second put = %v, %v: want both", ids(ms), err)
		}
	})
}
