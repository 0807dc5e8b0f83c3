package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

func TestEngine_InitIDs(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	root := t.TempDir()
	file := filepath.Join(root, e.Config.Working.File)
	if err := os.WriteFile(file, []byte("# Working\n\n- Keep commits small.\n- Run the linter ^tr0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tagged, err := e.InitIDs(ctx, root)
	if err != nil || len(tagged) != 1 {
		t.Fatalf("InitIDs = %+v, %v: want the one untagged entry", tagged, err)
	}
	got := tagged[0]
	if got.Line != 3 || got.Text != "Keep commits small." || got.ID == "" {
		t.Errorf("tagged = %+v", got)
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), "- Keep commits small. ^"+got.ID+"\n") {
		t.Errorf("file after InitIDs:\n%s", b)
	}
	again, err := e.InitIDs(ctx, root)
	if err != nil || again == nil || len(again) != 0 {
		t.Errorf("second run = %#v, %v: want an empty list", again, err)
	}
}

// firstDrawn makes the first id drawn for an untagged entry id, the rest
// fresh ones.
func firstDrawn(t *testing.T, id string) {
	draws := 0
	engine.SetNewID(t, func() string {
		if draws++; draws == 1 {
			return id
		}
		return recall.NewID()
	})
}

// storedAndUntagged puts a memory in e's store and writes a working file
// under root with one untagged entry; the first id drawn for an entry
// will be the memory's. The returned check fails the test unless the
// memory is untouched and the file does not name it.
func storedAndUntagged(t *testing.T, e *engine.Engine, root string) func(step string) {
	ctx := context.Background()
	put, err := e.Put(ctx, &recall.Memory{Content: "Prefer tabs over spaces."})
	if err != nil {
		t.Fatal(err)
	}
	stored := put.Memory.ID
	file := filepath.Join(root, e.Config.Working.File)
	if err := os.WriteFile(file, []byte("# Working\n\n- Keep commits small.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	firstDrawn(t, stored)
	return func(step string) {
		t.Helper()
		m, err := e.Get(ctx, stored, "")
		if err != nil || m.Content != "Prefer tabs over spaces." || m.Version != 1 {
			t.Fatalf("after %s the stored memory is %+v, %v: want it untouched", step, m, err)
		}
		if b, _ := os.ReadFile(file); strings.Contains(string(b), stored) {
			t.Fatalf("after %s the file names the stored memory:\n%s", step, b)
		}
	}
}

// TestEngine_InitIDs_SkipsStoredIDs: an id drawn for an untagged entry
// that a memory of the store already has is drawn again, so the entry
// never takes that memory over at the next sync.
func TestEngine_InitIDs_SkipsStoredIDs(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	root := t.TempDir()
	unchanged := storedAndUntagged(t, e, root)
	tagged, err := e.InitIDs(ctx, root)
	if err != nil || len(tagged) != 1 {
		t.Fatalf("InitIDs = %+v, %v: want the entry tagged", tagged, err)
	}
	unchanged("init-ids")
	if _, err := e.SyncProject(ctx, root, e.Now()); err != nil {
		t.Fatal(err)
	}
	unchanged("init-ids and sync")
}

// TestEngine_Sync_SkipsStoredIDs: the same for the entries sync tags.
func TestEngine_Sync_SkipsStoredIDs(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	root := t.TempDir()
	unchanged := storedAndUntagged(t, e, root)
	rep, err := e.SyncProject(ctx, root, e.Now())
	if err != nil || rep.Tagged != 1 {
		t.Fatalf("SyncProject = %+v, %v: want the entry tagged", rep, err)
	}
	unchanged("sync")
	if _, total, err := e.List(ctx, recall.MemoryFilter{}); err != nil || total != 2 {
		t.Fatalf("%d memories, %v: want the stored one and the entry's", total, err)
	}
}

// TestEngine_Sync_SkipsDeletedIDs: a deleted memory keeps its history, so
// its id is taken too: the entry sync tags is given another, and the
// history stays as it was.
func TestEngine_Sync_SkipsDeletedIDs(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	root := t.TempDir()
	put, err := e.Put(ctx, &recall.Memory{Content: "Prefer tabs over spaces."})
	if err != nil {
		t.Fatal(err)
	}
	gone := put.Memory.ID
	spaces := "Prefer spaces."
	if _, err := e.Update(ctx, gone, recall.MemoryUpdate{Content: &spaces}); err != nil {
		t.Fatal(err)
	}
	if err := e.Delete(ctx, gone); err != nil {
		t.Fatal(err)
	}
	before, err := e.Versions(ctx, gone)
	if err != nil || len(before) != 3 {
		t.Fatalf("history before: %d versions, %v", len(before), err)
	}
	file := filepath.Join(root, e.Config.Working.File)
	if err := os.WriteFile(file, []byte("# Working\n\n- Keep commits small.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	firstDrawn(t, gone)
	if rep, err := e.SyncProject(ctx, root, e.Now()); err != nil || rep.Tagged != 1 {
		t.Fatalf("SyncProject = %+v, %v: want the entry tagged", rep, err)
	}
	if b, _ := os.ReadFile(file); strings.Contains(string(b), gone) {
		t.Fatalf("the entry was given the deleted memory's id:\n%s", b)
	}
	after, err := e.Versions(ctx, gone)
	if err != nil || len(after) != 3 {
		t.Fatalf("history after: %d versions, %v; want the 3 it had", len(after), err)
	}
	for i := range after {
		if after[i].Op != before[i].Op || after[i].Memory.Content != before[i].Memory.Content {
			t.Fatalf("version %d changed: %s %q, was %s %q", i+1, after[i].Op, after[i].Memory.Content, before[i].Op, before[i].Memory.Content)
		}
	}
}
