package recalltest

import (
	"context"
	"slices"
	"testing"

	"github.com/recall-mem/recall"
)

// TestTiers runs the contract of the managed files' bookkeeping
// (TierStore). open returns a fresh, empty store.
func TestTiers(t *testing.T, open func(t *testing.T) recall.Store) {
	ctx := context.Background()
	t.Run("Meta", func(t *testing.T) {
		tiers := open(t).Tiers()
		if v, err := tiers.StoreMeta(ctx, "contract.key"); err != nil || v != "" {
			t.Fatalf("StoreMeta of an unset key = %q, %v", v, err)
		}
		for _, v := range []string{"first", "second"} {
			if err := tiers.ApplyTierChanges(ctx, recall.TierChanges{Meta: map[string]string{"contract.key": v}}); err != nil {
				t.Fatal(err)
			}
			if got, err := tiers.StoreMeta(ctx, "contract.key"); err != nil || got != v {
				t.Fatalf("StoreMeta = %q, %v: want %q", got, err, v)
			}
		}
	})
	t.Run("Records", func(t *testing.T) {
		tiers := open(t).Tiers()
		if recs, err := tiers.SyncRecords(ctx); err != nil || len(recs) != 0 {
			t.Fatalf("SyncRecords of a new store = %v, %v", recs, err)
		}
		a := recall.SyncRecord{ID: recall.NewID(), File: "CLAUDE.local.md", Text: "use helix", Tier: recall.TierWorking}
		b := recall.SyncRecord{ID: recall.NewID(), File: "docs/register.md", Text: "ship tuesdays", Tier: recall.TierRegister}
		if err := tiers.ApplyTierChanges(ctx, recall.TierChanges{Records: []recall.SyncRecord{a, b}}); err != nil {
			t.Fatal(err)
		}
		recs, err := tiers.SyncRecords(ctx)
		if err != nil || len(recs) != 2 || recs[a.ID] != a || recs[b.ID] != b {
			t.Fatalf("SyncRecords = %v, %v", recs, err)
		}
		a.Text, a.Tier = "use helix everywhere", recall.TierArchive
		if err := tiers.ApplyTierChanges(ctx, recall.TierChanges{Records: []recall.SyncRecord{a}, Drop: []string{b.ID}}); err != nil {
			t.Fatal(err)
		}
		recs, err = tiers.SyncRecords(ctx)
		if err != nil || len(recs) != 1 || recs[a.ID] != a {
			t.Fatalf("SyncRecords after a replace and a drop = %v, %v", recs, err)
		}
	})
	t.Run("InsertAndUpdate", func(t *testing.T) {
		st := open(t)
		mem := st.Memories()
		old := mustPut(t, mem, &recall.Memory{Content: "in the register"})
		id := recall.NewID()
		err := st.Tiers().ApplyTierChanges(ctx, recall.TierChanges{
			Op:     "sync",
			Insert: []*recall.Memory{{ID: id, Content: "written in the file", Tier: recall.TierWorking}},
			Update: []recall.MemoryChange{{ID: old.ID, Update: recall.MemoryUpdate{Tier: ptr(recall.TierWorking)}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := mem.FindMemory(ctx, id, "")
		if err != nil || got.Content != "written in the file" || got.Tier != recall.TierWorking {
			t.Fatalf("the inserted memory = %+v, %v: want its id kept", got, err)
		}
		vs, err := mem.MemoryVersions(ctx, old.ID)
		if err != nil || len(vs) != 2 || vs[1].Op != "sync" || vs[1].Memory.Tier != recall.TierWorking {
			t.Fatalf("versions of the updated memory = %v, %v: want a second version with op sync", vs, err)
		}
		if vs, err := mem.MemoryVersions(ctx, id); err != nil || len(vs) != 1 || vs[0].Op != "sync" {
			t.Fatalf("versions of the inserted memory = %v, %v", vs, err)
		}
	})
	t.Run("AllOrNothing", func(t *testing.T) {
		st := open(t)
		tiers := st.Tiers()
		kept := mustPut(t, st.Memories(), &recall.Memory{Content: "already here"})
		mustPut(t, st.Memories(), &recall.Memory{Title: "Pinned", Content: "holds the title", Pinned: true})
		fresh := recall.NewID()
		rec := recall.SyncRecord{ID: fresh, File: "f.md", Text: "x", Tier: recall.TierWorking}
		cases := []struct {
			name string
			bad  recall.TierChanges
			code string
		}{
			{"UnknownUpdate", recall.TierChanges{Update: []recall.MemoryChange{{ID: recall.NewID(), Update: recall.MemoryUpdate{Tier: ptr(recall.TierArchive)}}}}, recall.ENOTFOUND},
			{"TakenID", recall.TierChanges{Insert: []*recall.Memory{{ID: kept.ID, Content: "clash"}}}, recall.ECONFLICT},
			{"BadField", recall.TierChanges{Update: []recall.MemoryChange{{ID: kept.ID, Update: recall.MemoryUpdate{Tier: ptr("attic")}}}}, recall.EINVALID},
			{"BadInsert", recall.TierChanges{Insert: []*recall.Memory{{ID: recall.NewID(), Content: ""}}}, recall.EINVALID},
			{"UpdateTakesPinnedTitle", recall.TierChanges{Update: []recall.MemoryChange{{ID: kept.ID, Update: recall.MemoryUpdate{Title: ptr("Pinned"), Pinned: ptr(true)}}}}, recall.ECONFLICT},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				ch := c.bad
				ch.Insert = append([]*recall.Memory{{ID: fresh, Content: "must not stay"}}, ch.Insert...)
				ch.Records = []recall.SyncRecord{rec}
				ch.Meta = map[string]string{"contract.partial": "yes"}
				wantCode(t, tiers.ApplyTierChanges(ctx, ch), c.code)
				_, err := st.Memories().FindMemory(ctx, fresh, "")
				wantCode(t, err, recall.ENOTFOUND)
				if recs, _ := tiers.SyncRecords(ctx); len(recs) != 0 {
					t.Fatalf("a refused change left sync records %v", recs)
				}
				if v, _ := tiers.StoreMeta(ctx, "contract.partial"); v != "" {
					t.Fatalf("a refused change left store meta %q", v)
				}
				if vs, _ := st.Memories().MemoryVersions(ctx, kept.ID); len(vs) != 1 {
					t.Fatalf("a refused change left %d versions of an existing memory", len(vs))
				}
			})
		}
	})
	t.Run("PinClash", func(t *testing.T) {
		st := open(t)
		mustPut(t, st.Memories(), &recall.Memory{Title: "Editor", Content: "helix", Pinned: true})
		other := mustPut(t, st.Memories(), &recall.Memory{Title: "Editor", Content: "vim"})
		err := st.Tiers().ApplyTierChanges(ctx, recall.TierChanges{Op: "pin", Update: []recall.MemoryChange{{ID: other.ID, Update: recall.MemoryUpdate{Pinned: ptr(true)}}}})
		wantCode(t, err, recall.ECONFLICT)
	})
	t.Run("Anchored", func(t *testing.T) {
		st := open(t)
		mem := st.Memories()
		a := mustPut(t, mem, &recall.Memory{Content: "the config loader", Anchors: []recall.Anchor{{Path: "config.go", Hash: "ab12"}}})
		gone := mustPut(t, mem, &recall.Memory{Content: "the old loader", Anchors: []recall.Anchor{{Path: "old.go", Hash: "cd34"}}})
		mustPut(t, mem, &recall.Memory{Content: "no anchor"})
		if err := mem.DeleteMemory(ctx, gone.ID); err != nil {
			t.Fatal(err)
		}
		got, err := st.Tiers().AnchoredMemories(ctx)
		if err != nil || !slices.Equal(ids(got), []string{a.ID}) {
			t.Fatalf("AnchoredMemories = %v, %v: want only the active anchored memory", ids(got), err)
		}
		if len(got[0].Anchors) != 1 || got[0].Anchors[0] != a.Anchors[0] {
			t.Fatalf("anchors = %+v", got[0].Anchors)
		}
	})
}
