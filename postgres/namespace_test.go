package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
)

// TestNamespaces checks that two stores sharing one database see nothing
// of each other: not by id, key, filter, search, history or observation.
func TestNamespaces(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	a, b := mustOpen(t, dbURL, "team-a"), mustOpen(t, dbURL, "team-b")
	ma, mb := postgres.NewMemoryService(a), postgres.NewMemoryService(b)
	put, err := ma.PutMemory(ctx, &recall.Memory{Key: "editor", Content: "Alice uses helix"})
	if err != nil {
		t.Fatal(err)
	}
	m := put.Memory
	// The same key in the other namespace is a memory of its own.
	if res, err := mb.PutMemory(ctx, &recall.Memory{Key: "editor", Content: "Bob uses vim"}); err != nil || !res.Created {
		t.Fatalf("same key in namespace b: %+v %v", res, err)
	}
	if _, err := mb.FindMemory(ctx, m.ID, ""); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("b finds a's memory by id: %v", err)
	}
	if got, err := mb.FindMemory(ctx, "editor", ""); err != nil || got.Content != "Bob uses vim" {
		t.Fatalf("b by key: %+v %v", got, err)
	}
	if _, total, err := mb.FindMemories(ctx, recall.MemoryFilter{Status: ptr("*")}); err != nil || total != 1 {
		t.Fatalf("b lists %d memories (%v), want its own 1", total, err)
	}
	if hits, err := mb.Search(ctx, recall.SearchQuery{Text: "helix"}); err != nil || len(hits) != 0 {
		t.Fatalf("b's search finds %d of a's memories (%v)", len(hits), err)
	}
	if _, err := mb.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("stolen")}); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("b updates a's memory: %v", err)
	}
	if err := mb.DeleteMemory(ctx, m.ID); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("b deletes a's memory: %v", err)
	}
	if _, err := mb.MemoryVersions(ctx, m.ID); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("b reads a's history: %v", err)
	}
	if old, err := mb.MemoriesAsOf(ctx, time.Now().Add(time.Hour)); err != nil || len(old) != 1 || old[0].Content != "Bob uses vim" {
		t.Fatalf("b's as-of: %v %v", old, err)
	}
	// Importing a's id into b creates b's own copy; a's stays as it was.
	if res, err := mb.ImportMemories(ctx, []*recall.Memory{{ID: m.ID, Content: "b's copy"}}); err != nil || res.Added != 1 {
		t.Fatalf("import into b: %+v %v", res, err)
	}
	if got, err := ma.FindMemory(ctx, m.ID, ""); err != nil || got.Content != "Alice uses helix" || got.Version != 1 {
		t.Fatalf("a's memory after b's import: %+v %v", got, err)
	}

	oa, ob := postgres.NewObservationService(a), postgres.NewObservationService(b)
	obs := []*recall.Observation{{Type: recall.ObsCommand, Content: "make deploy"}}
	if err := oa.RecordObservations(ctx, obs); err != nil {
		t.Fatal(err)
	}
	if got, total, err := ob.FindObservations(ctx, recall.ObservationFilter{ID: &obs[0].ID}); err != nil || total != 0 || len(got) != 0 {
		t.Fatalf("b finds a's observation by id: %d %v", total, err)
	}
	if _, total, err := ob.FindObservations(ctx, recall.ObservationFilter{Search: "deploy"}); err != nil || total != 0 {
		t.Fatalf("b's search finds %d of a's observations (%v)", total, err)
	}
	if _, total, err := oa.FindObservations(ctx, recall.ObservationFilter{Search: "deploy"}); err != nil || total != 1 {
		t.Fatalf("a's own search finds %d (%v)", total, err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestImportRepeatedID imports two states of one id, and a memory's
// update twice: each later one is the next version, as when imported one
// at a time.
func TestImportRepeatedID(t *testing.T) {
	ctx := context.Background()
	s := postgres.NewMemoryService(mustOpen(t, pgtest.NewDatabase(t), ""))
	old, err := s.PutMemory(ctx, &recall.Memory{Content: "stored"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.ImportMemories(ctx, []*recall.Memory{
		{ID: "tr00000000aa", Content: "first"},
		{ID: old.Memory.ID, Content: "stored, changed"},
		{ID: "tr00000000aa", Content: "second"},
		{ID: old.Memory.ID, Content: "stored, changed again"},
	})
	if err != nil || res.Added != 1 || res.Updated != 3 {
		t.Fatalf("result %+v, %v", res, err)
	}
	for id, want := range map[string]struct {
		content string
		version int
	}{"tr00000000aa": {"second", 2}, old.Memory.ID: {"stored, changed again", 3}} {
		got, err := s.FindMemory(ctx, id, "")
		if err != nil || got.Content != want.content || got.Version != want.version {
			t.Fatalf("%s: %+v %v, want %q at version %d", id, got, err, want.content, want.version)
		}
		if vs, err := s.MemoryVersions(ctx, id); err != nil || len(vs) != want.version {
			t.Fatalf("%s: %d versions (%v)", id, len(vs), err)
		}
	}
}

// TestMemoryVersionAndPin reads one version back and pins an observation,
// each only within its namespace.
func TestMemoryVersionAndPin(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	a, b := mustOpen(t, dbURL, ""), mustOpen(t, dbURL, "b")
	ms := postgres.NewMemoryService(a)
	res, err := ms.PutMemory(ctx, &recall.Memory{Key: "k", Content: "one"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ms.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Content: ptr("two")}); err != nil {
		t.Fatal(err)
	}
	if got, err := ms.MemoryVersion(ctx, "k", 1); err != nil || got.Content != "one" {
		t.Fatalf("version 1: %+v %v", got, err)
	}
	if _, err := ms.MemoryVersion(ctx, "k", 3); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("version 3: %v", err)
	}
	if _, err := postgres.NewMemoryService(b).MemoryVersion(ctx, res.Memory.ID, 1); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("another namespace reads the version: %v", err)
	}

	obsv := postgres.NewObservationService(a)
	obs := []*recall.Observation{{Type: "note", Content: "landmark"}}
	if err := obsv.RecordObservations(ctx, obs); err != nil {
		t.Fatal(err)
	}
	if err := postgres.NewObservationService(b).PinObservation(ctx, obs[0].ID, true); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("another namespace pins it: %v", err)
	}
	if err := obsv.PinObservation(ctx, obs[0].ID, true); err != nil {
		t.Fatal(err)
	}
	got, _, err := obsv.FindObservations(ctx, recall.ObservationFilter{ID: &obs[0].ID})
	if err != nil || len(got) != 1 || !got[0].Pinned {
		t.Fatalf("after pinning: %+v %v", got, err)
	}
}
