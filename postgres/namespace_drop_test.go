package postgres_test

import (
	"context"
	"net/url"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
	"github.com/recall-mem/recall/recalltest"
)

// TestDropNamespace: dropping a namespace deletes its memories, versions,
// vectors and observations, and nothing of another namespace.
func TestDropNamespace(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	in := func(ns string) string {
		u, _ := url.Parse(dbURL)
		q := u.Query()
		q.Set("namespace", ns)
		u.RawQuery = q.Encode()
		return u.String()
	}
	fill := func(ns string) *postgres.Store {
		st, err := postgres.OpenStore(ctx, in(ns), recall.StoreOptions{Embedding: &recall.EmbeddingOptions{Embedder: &recalltest.WordEmbedder{}, Inline: true}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		res, err := st.Memories().PutMemory(ctx, &recall.Memory{Key: "k", Content: "kept or dropped"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Memories().UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Content: ptr("a second version")}); err != nil {
			t.Fatal(err)
		}
		if err := st.Observations().RecordObservations(ctx, []*recall.Observation{{Type: "note", Content: "seen"}}); err != nil {
			t.Fatal(err)
		}
		return st
	}
	counts := func(st *postgres.Store) recall.BackupCounts {
		c, err := st.Upkeep().Counts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	gone, kept := fill("bench-1"), fill("other")
	before := counts(kept)
	if c := counts(gone); c.Memories != 1 || c.Versions != 2 || c.Vectors == 0 || c.Observations != 1 {
		t.Fatalf("counts before the drop %+v", c)
	}
	if err := postgres.DropNamespace(ctx, in("bench-1")); err != nil {
		t.Fatal(err)
	}
	if c := counts(gone); !c.Empty() || c.Vectors != 0 {
		t.Fatalf("counts of the dropped namespace %+v: want nothing", c)
	}
	if c := counts(kept); c != before {
		t.Fatalf("counts of the other namespace %+v, before the drop %+v", c, before)
	}
}
