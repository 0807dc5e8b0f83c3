package sqlite_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

func TestMemoryService_Put(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		s := sqlite.NewMemoryService(MustOpenDB(t))
		res, err := s.PutMemory(ctx, &recall.Memory{Title: "GPU patterns", Key: "gpu", Content: "Use Metal.", Tags: []string{"gpu"}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Created || !recall.IsID(res.Memory.ID) || res.Memory.Version != 1 || res.Memory.Collection != "default" {
			t.Fatalf("unexpected %+v", res.Memory)
		}
		got, err := s.FindMemory(ctx, "gpu", "")
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != res.Memory.ID || got.Content != "Use Metal." {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("SameKeyNewVersion", func(t *testing.T) {
		s := sqlite.NewMemoryService(MustOpenDB(t))
		a, _ := s.PutMemory(ctx, &recall.Memory{Key: "k", Content: "one"})
		b, err := s.PutMemory(ctx, &recall.Memory{Key: "k", Content: "two"})
		if err != nil {
			t.Fatal(err)
		}
		if b.Created || b.Memory.ID != a.Memory.ID || b.Memory.Version != 2 {
			t.Fatalf("got %+v", b.Memory)
		}
		vs, err := s.MemoryVersions(ctx, "k")
		if err != nil || len(vs) != 2 || vs[0].Memory.Content != "one" {
			t.Fatalf("versions %v %v", vs, err)
		}
	})
	t.Run("ErrInvalidKey", func(t *testing.T) {
		s := sqlite.NewMemoryService(MustOpenDB(t))
		_, err := s.PutMemory(ctx, &recall.Memory{Key: "../etc", Content: "x"})
		if recall.ErrorCode(err) != recall.EINVALID {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		db := MustOpenDB(t)
		db.MaxContentBytes = 10
		_, err := sqlite.NewMemoryService(db).PutMemory(ctx, &recall.Memory{Content: "01234567890"})
		if recall.ErrorCode(err) != recall.ETOOLARGE {
			t.Fatalf("got %v", err)
		}
	})
}

func TestMemoryService_DeleteRestore(t *testing.T) {
	ctx := context.Background()
	s := sqlite.NewMemoryService(MustOpenDB(t))
	res, _ := s.PutMemory(ctx, &recall.Memory{Key: "k", Content: "one"})
	id := res.Memory.ID
	if err := s.DeleteMemory(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FindMemory(ctx, id, ""); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("got %v", err)
	}
	m, err := s.RestoreMemory(ctx, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "one" || m.Version != 3 {
		t.Fatalf("got %+v", m)
	}
}

func TestMemoryService_Search(t *testing.T) {
	ctx := context.Background()
	s := sqlite.NewMemoryService(MustOpenDB(t))
	s.PutMemory(ctx, &recall.Memory{Title: "Auth", Content: "OAuth tokens rotate hourly."})
	s.PutMemory(ctx, &recall.Memory{Title: "DB", Content: "Postgres is the primary store."})
	for _, q := range []string{`"oauth`, `token AND OR NOT`, `col:value`, `a-b-c*`, `NEAR(x y)`, `)(`} {
		if _, err := s.Search(ctx, recall.SearchQuery{Text: q}); err != nil {
			t.Fatalf("%q: %v", q, err)
		}
	}
	hits, err := s.Search(ctx, recall.SearchQuery{Text: "which tokens rotate?"})
	if err != nil || len(hits) != 1 || hits[0].Memory.Title != "Auth" {
		t.Fatalf("hits %v err %v", hits, err)
	}
}

func TestMemoryService_FindMemories(t *testing.T) {
	ctx := context.Background()
	s := sqlite.NewMemoryService(MustOpenDB(t))
	must := func(m *recall.Memory) {
		t.Helper()
		if _, err := s.PutMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	must(&recall.Memory{Key: "a", Content: "a", Tags: []string{"api", "auth"}, Priority: "high", Metadata: []byte(`{"source":"web"}`)})
	must(&recall.Memory{Key: "b", Content: "b", Tags: []string{"db"}, Collection: "knowledge", Tier: recall.TierWorking})
	must(&recall.Memory{Key: "c", Content: "c", Status: recall.StatusSuperseded})
	for _, tt := range []struct {
		name string
		f    recall.MemoryFilter
		want int
	}{
		{"ActiveByDefault", recall.MemoryFilter{}, 2},
		{"AnyStatus", recall.MemoryFilter{Status: ptr("any")}, 3},
		{"Tags", recall.MemoryFilter{Fields: map[string][]string{"tags": {"auth", "zzz"}}}, 1},
		{"Field", recall.MemoryFilter{Fields: map[string][]string{"priority": {"high"}}}, 1},
		{"Metadata", recall.MemoryFilter{Fields: map[string][]string{"metadata.source": {"web"}}}, 1},
		{"Collection", recall.MemoryFilter{Collection: ptr("knowledge")}, 1},
		{"Tier", recall.MemoryFilter{Tier: ptr(recall.TierWorking)}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, n, err := s.FindMemories(ctx, tt.f)
			if err != nil || n != tt.want {
				t.Fatalf("got %d (%v), want %d", n, err, tt.want)
			}
		})
	}
	t.Run("Newest", func(t *testing.T) {
		// updated last, occurred first: last in the listing by occurrence
		old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		must(&recall.Memory{Key: "old", Content: "old", OccurredAt: old})
		ms, _, err := s.FindMemories(ctx, recall.MemoryFilter{Newest: true})
		if err != nil || len(ms) < 2 || ms[len(ms)-1].Key != "old" {
			t.Fatalf("got %v %v", ms, err)
		}
		for i := 1; i < len(ms); i++ {
			if ms[i].OccurredAt.After(ms[i-1].OccurredAt) {
				t.Fatalf("%s after %s", ms[i].OccurredAt, ms[i-1].OccurredAt)
			}
		}
		if ms, _, _ := s.FindMemories(ctx, recall.MemoryFilter{}); ms[0].Key != "old" {
			t.Fatalf("default order: first %q, want the last updated", ms[0].Key)
		}
	})
	t.Run("ErrUnknownField", func(t *testing.T) {
		_, _, err := s.FindMemories(ctx, recall.MemoryFilter{Fields: map[string][]string{"colour": {"red"}}})
		if recall.ErrorCode(err) != recall.EINVALID {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrAmbiguousKey", func(t *testing.T) {
		must(&recall.Memory{Key: "a", Collection: "other", Content: "a2"})
		if _, err := s.FindMemory(ctx, "a", ""); recall.ErrorCode(err) != recall.ECONFLICT {
			t.Fatalf("got %v", err)
		}
		if m, err := s.FindMemory(ctx, "a", "other"); err != nil || m.Content != "a2" {
			t.Fatalf("got %v %v", m, err)
		}
	})
}

func TestMemoryService_Update(t *testing.T) {
	ctx := context.Background()
	s := sqlite.NewMemoryService(MustOpenDB(t))
	res, _ := s.PutMemory(ctx, &recall.Memory{Key: "k", Content: "x", Tags: []string{"a"}, Metadata: []byte(`{"keep":1,"drop":2}`)})
	tags := []string{"b", "a"}
	meta := []byte(`{"drop":null,"new":"v"}`)
	m, err := s.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Tags: &tags, MergeTags: true, Metadata: (*json.RawMessage)(&meta)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b"}, m.Tags); diff != "" {
		t.Error(diff)
	}
	if string(m.Metadata) != `{"keep":1,"new":"v"}` || m.Version != 2 {
		t.Errorf("metadata %s version %d", m.Metadata, m.Version)
	}
	t.Run("ErrKeyTaken", func(t *testing.T) {
		s.PutMemory(ctx, &recall.Memory{Key: "other", Content: "y"})
		key := "other"
		if _, err := s.UpdateMemory(ctx, "k", recall.MemoryUpdate{Key: &key}); recall.ErrorCode(err) != recall.ECONFLICT {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrPinTitleTaken", func(t *testing.T) {
		yes := true
		a, _ := s.PutMemory(ctx, &recall.Memory{Title: "Core rule", Content: "1", Pinned: true})
		b, _ := s.PutMemory(ctx, &recall.Memory{Title: "core rule", Content: "2", Key: "core-rule-2"})
		if _, err := s.UpdateMemory(ctx, b.Memory.ID, recall.MemoryUpdate{Pinned: &yes}); recall.ErrorCode(err) != recall.ECONFLICT {
			t.Fatalf("got %v (first pin %s)", err, a.Memory.ID)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		if _, err := s.UpdateMemory(ctx, "tr0000000000", recall.MemoryUpdate{}); recall.ErrorCode(err) != recall.ENOTFOUND {
			t.Fatalf("got %v", err)
		}
	})
}

func TestMemoryService_Import(t *testing.T) {
	ctx := context.Background()
	s := sqlite.NewMemoryService(MustOpenDB(t))
	res, _ := s.PutMemory(ctx, &recall.Memory{Key: "k", Content: "old"})
	t.Run("OK", func(t *testing.T) {
		got, err := s.ImportMemories(ctx, []*recall.Memory{
			{ID: res.Memory.ID, Key: "k", Collection: "default", Content: "new"},
			{ID: "tr00000000aa", Key: "fresh", Collection: "default", Content: "fresh"},
		})
		if err != nil || got.Added != 1 || got.Updated != 1 {
			t.Fatalf("got %+v %v", got, err)
		}
		if m, _ := s.FindMemory(ctx, "tr00000000aa", ""); m == nil || m.Key != "fresh" {
			t.Fatalf("id not preserved: %+v", m)
		}
	})
	t.Run("Atomic", func(t *testing.T) {
		_, before, _ := s.FindMemories(ctx, recall.MemoryFilter{})
		_, err := s.ImportMemories(ctx, []*recall.Memory{
			{ID: "tr00000000bb", Content: "would be added"},
			{ID: "tr00000000cc", Key: "fresh", Collection: "default", Content: "clashes with the key of another id"},
		})
		if recall.ErrorCode(err) != recall.ECONFLICT {
			t.Fatalf("got %v", err)
		}
		if _, after, _ := s.FindMemories(ctx, recall.MemoryFilter{}); after != before {
			t.Fatalf("partial import: %d → %d", before, after)
		}
	})
}

func TestDB_FilePermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	db := sqlite.NewDB(filepath.Join(dir, "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sqlite.NewMemoryService(db).PutMemory(context.Background(), &recall.Memory{Content: "x"})
	for path, want := range map[string]os.FileMode{dir: 0o700, db.Path: 0o600, db.Path + "-wal": 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %o, want %o", path, got, want)
		}
	}
}

func ptr[T any](v T) *T { return &v }
