package sqlite_test

import (
	"context"
	"testing"

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
