package recalltest

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
)

// TestVectors runs the contract of a store's vectors (VectorStore). open
// returns a fresh, empty store opened with o, whose Embedding the suite
// sets: a WordEmbedder, inline or through the queue.
func TestVectors(t *testing.T, open func(t *testing.T, o recall.StoreOptions) recall.Store) {
	ctx := context.Background()
	with := func(t *testing.T, inline bool) (recall.Store, *WordEmbedder) {
		t.Helper()
		e := &WordEmbedder{}
		st := open(t, recall.StoreOptions{Embedding: &recall.EmbeddingOptions{
			Embedder: e, Chunker: chunk.Splitter{}, Inline: inline, Interval: 10 * time.Millisecond}})
		if st.Vectors() == nil {
			t.Fatal("Vectors() is nil on a store opened with an embedder")
		}
		return st, e
	}
	stats := func(t *testing.T, v recall.VectorStore) *recall.VectorStats {
		t.Helper()
		s, err := v.VectorStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	search := func(t *testing.T, v recall.VectorStore, q string, k int) []recall.VectorHit {
		t.Helper()
		hits, err := v.SearchVectors(ctx, q, k)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	memoryIDs := func(hits []recall.VectorHit) []string {
		var out []string
		for _, h := range hits {
			out = append(out, h.MemoryID)
		}
		return out
	}
	t.Run("WithoutEmbedder", func(t *testing.T) {
		if v := open(t, recall.StoreOptions{}).Vectors(); v != nil {
			t.Fatal("Vectors() of a store opened without an embedder is not nil")
		}
	})
	t.Run("Inline", func(t *testing.T) {
		st, e := with(t, true)
		v := st.Vectors()
		if !v.EmbedsInline() || v.EmbedderModel() != e.Model() {
			t.Fatalf("EmbedsInline %v, EmbedderModel %q", v.EmbedsInline(), v.EmbedderModel())
		}
		mustPut(t, st.Memories(), &recall.Memory{Content: "deploy through staging first"})
		mustPut(t, st.Memories(), &recall.Memory{Content: "the editor is helix"})
		s := stats(t, v)
		if s.Model != e.Model() || s.StoredModel != e.Model() || s.Memories != 2 || s.Embedded != 2 || s.Vectors < 2 || s.Queued != 0 {
			t.Fatalf("VectorStats = %+v: want both memories embedded, none queued", s)
		}
	})
	t.Run("Order", func(t *testing.T) {
		st, _ := with(t, true)
		mem := st.Memories()
		all := mustPut(t, mem, &recall.Memory{Content: "red green blue yellow"})
		three := mustPut(t, mem, &recall.Memory{Content: "red green blue pink purple"})
		one := mustPut(t, mem, &recall.Memory{Content: "red cat dog fish bird"})
		mustPut(t, mem, &recall.Memory{Content: "nothing alike here"})
		hits := search(t, st.Vectors(), "red green blue yellow", 3)
		if got, want := memoryIDs(hits), []string{all.ID, three.ID, one.ID}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Fatalf("SearchVectors order = %v, want %v: most shared words first", got, want)
		}
		for i, h := range hits {
			if h.Score > 1.0001 || h.Score <= 0 || (i > 0 && h.Score > hits[i-1].Score) {
				t.Fatalf("scores %+v: want cosines, best first", hits)
			}
		}
		if hits[0].Score < 0.999 {
			t.Fatalf("the identical text scores %v, want 1", hits[0].Score)
		}
		if h := hits[1]; h.Start < 0 || h.End <= h.Start || h.End > len(three.Content) {
			t.Fatalf("passage offsets %d..%d outside the content", h.Start, h.End)
		}
		if got := search(t, st.Vectors(), "red", 1); len(got) != 1 {
			t.Fatalf("k=1 returned %d hits", len(got))
		}
	})
	t.Run("FollowsWrites", func(t *testing.T) {
		st, _ := with(t, true)
		mem := st.Memories()
		m := mustPut(t, mem, &recall.Memory{Content: "alpha beta gamma"})
		other := mustPut(t, mem, &recall.Memory{Content: "delta epsilon zeta"})
		if _, err := mem.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("delta epsilon eta")}); err != nil {
			t.Fatal(err)
		}
		hits := search(t, st.Vectors(), "delta epsilon eta", 2)
		if len(hits) != 2 || hits[0].MemoryID != m.ID || hits[0].Score < 0.999 {
			t.Fatalf("after an update the new content = %+v: want the updated memory first with score 1", hits)
		}
		if err := mem.DeleteMemory(ctx, m.ID); err != nil {
			t.Fatal(err)
		}
		for _, h := range search(t, st.Vectors(), "delta epsilon eta", 5) {
			if h.MemoryID == m.ID {
				t.Fatal("a deleted memory is still a vector hit")
			}
		}
		if got := memoryIDs(search(t, st.Vectors(), "delta", 5)); len(got) != 1 || got[0] != other.ID {
			t.Fatalf("hits %v, want only the live memory", got)
		}
	})
	t.Run("Purge", func(t *testing.T) {
		st, _ := with(t, true)
		m := mustPut(t, st.Memories(), &recall.Memory{Content: "the vault code is zebra42"})
		mustPut(t, st.Memories(), &recall.Memory{Content: "the office is in Berlin"})
		before := stats(t, st.Vectors()).Vectors
		if _, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{Search: "zebra42", Memories: true}); err != nil {
			t.Fatal(err)
		}
		for _, h := range search(t, st.Vectors(), "the vault code is zebra42", 5) {
			if h.MemoryID == m.ID {
				t.Fatal("a purged memory is still a vector hit")
			}
		}
		if s := stats(t, st.Vectors()); s.Vectors >= before || s.Memories != 1 || s.Embedded != 1 {
			t.Fatalf("VectorStats after a purge = %+v (%d vectors before): want the purged memory's gone", s, before)
		}
	})
	t.Run("Queue", func(t *testing.T) {
		st, _ := with(t, false)
		v := st.Vectors()
		if v.EmbedsInline() {
			t.Fatal("EmbedsInline on a store opened with a queue")
		}
		a := mustPut(t, st.Memories(), &recall.Memory{Content: "queued one"})
		mustPut(t, st.Memories(), &recall.Memory{Content: "queued two"})
		if s := stats(t, v); s.Queued != 2 || s.Embedded != 0 || v.QueuedHere() != 2 {
			t.Fatalf("VectorStats before a drain = %+v, queued here %d: want two queued", s, v.QueuedHere())
		}
		if err := v.DrainQueue(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if s := stats(t, v); s.Queued != 0 || s.Embedded != 2 || s.Failing != 0 {
			t.Fatalf("VectorStats after a drain = %+v: want both embedded", s)
		}
		if hits := search(t, v, "queued one", 1); len(hits) != 1 || hits[0].MemoryID != a.ID {
			t.Fatalf("SearchVectors after a drain = %+v", hits)
		}
	})
	t.Run("QueueStaleVersion", func(t *testing.T) {
		st, _ := with(t, false)
		v := st.Vectors()
		m := mustPut(t, st.Memories(), &recall.Memory{Content: "alpha beta gamma"})
		mustPut(t, st.Memories(), &recall.Memory{Content: "unrelated words entirely"})
		if err := v.DrainQueue(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Memories().UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("delta epsilon zeta")}); err != nil {
			t.Fatal(err)
		}
		if s := stats(t, v); s.Queued != 1 || s.Embedded != 1 {
			t.Fatalf("VectorStats after an update = %+v: want the update queued and its old vectors not counted", s)
		}
		if err := v.DrainQueue(ctx, 0); err != nil {
			t.Fatal(err)
		}
		hits := search(t, v, "delta epsilon zeta", 1)
		if s := stats(t, v); s.Queued != 0 || s.Embedded != 2 || len(hits) != 1 || hits[0].MemoryID != m.ID || hits[0].Score < 0.999 {
			t.Fatalf("after the drain: %+v, hits %+v: want the new content embedded", s, hits)
		}
	})
	t.Run("QueueForgets", func(t *testing.T) {
		st, _ := with(t, false)
		v := st.Vectors()
		del := mustPut(t, st.Memories(), &recall.Memory{Content: "deleted before its turn"})
		pur := mustPut(t, st.Memories(), &recall.Memory{Content: "purged before its turn zebra42"})
		keep := mustPut(t, st.Memories(), &recall.Memory{Content: "kept and embedded"})
		if err := st.Memories().DeleteMemory(ctx, del.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Forgetting().Purge(ctx, recall.PurgeCriteria{MemoryID: pur.ID, Memories: true}); err != nil {
			t.Fatal(err)
		}
		if s := stats(t, v); s.Queued != 1 || s.Memories != 1 {
			t.Fatalf("VectorStats after a delete and a purge of queued memories = %+v: want only the live one queued", s)
		}
		if err := v.DrainQueue(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if got := memoryIDs(search(t, v, "deleted purged kept before its turn zebra42 embedded", 5)); len(got) != 1 || got[0] != keep.ID {
			t.Fatalf("hits after the drain %v, want only the live memory", got)
		}
	})
	t.Run("BackupRestore", func(t *testing.T) {
		st, _ := with(t, true)
		other, _ := with(t, true)
		a := mustPut(t, st.Memories(), &recall.Memory{Content: "restored with its vectors"})
		path := t.TempDir() + "/backup"
		c, err := st.Upkeep().Backup(ctx, path)
		if err != nil || c.Vectors == 0 {
			t.Fatalf("Backup = %+v, %v: want the vectors counted", c, err)
		}
		// The other store has searched before: whatever it keeps of its
		// vectors must follow the restore.
		search(t, other.Vectors(), "anything", 1)
		if _, err := other.Upkeep().Restore(ctx, path, false); err != nil {
			t.Fatal(err)
		}
		if hits := search(t, other.Vectors(), "restored with its vectors", 1); len(hits) != 1 || hits[0].MemoryID != a.ID {
			t.Fatalf("SearchVectors after a restore = %+v", hits)
		}
	})
	t.Run("QueueFailure", func(t *testing.T) {
		st, e := with(t, false)
		v := st.Vectors()
		mustPut(t, st.Memories(), &recall.Memory{Content: "waits for the provider"})
		e.Down.Store(true)
		err := v.DrainQueue(ctx, 0)
		wantCode(t, err, recall.EUNAVAILABLE)
		if s := stats(t, v); s.Queued != 1 || s.Embedded != 0 || s.ProviderError == "" || s.ProviderErrorAt == nil {
			t.Fatalf("VectorStats with the provider down = %+v: want it queued and the failure recorded", s)
		}
		e.Down.Store(false)
		if err := v.DrainQueue(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if s := stats(t, v); s.Queued != 0 || s.Embedded != 1 || s.ProviderError != "" {
			t.Fatalf("VectorStats with the provider back = %+v: want it embedded and the failure cleared", s)
		}
	})
	t.Run("RunQueue", func(t *testing.T) {
		st, _ := with(t, false)
		v := st.Vectors()
		mustPut(t, st.Memories(), &recall.Memory{Content: "drained by the loop"})
		c, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { v.RunQueue(c); close(done) }()
		for stats(t, v).Queued != 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
		<-done
		if s := stats(t, v); s.Embedded != 1 {
			t.Fatalf("VectorStats after the loop = %+v", s)
		}
	})
	t.Run("Reindex", func(t *testing.T) {
		st, _ := with(t, false)
		v := st.Vectors()
		for _, c := range []string{"one fish", "two fish", "red fish"} {
			mustPut(t, st.Memories(), &recall.Memory{Content: c})
		}
		res, err := v.Reindex(ctx, recall.ReindexOptions{})
		if err != nil || res.Total != 3 || res.Embedded != 3 || res.Model != "words" || res.Dim != wordDim {
			t.Fatalf("Reindex of the missing = %+v, %v", res, err)
		}
		if s := stats(t, v); s.Embedded != 3 || s.Queued != 0 {
			t.Fatalf("VectorStats after a reindex = %+v", s)
		}
		res, err = v.Reindex(ctx, recall.ReindexOptions{})
		if err != nil || res.Total != 0 {
			t.Fatalf("a second Reindex = %+v, %v: want nothing missing", res, err)
		}
		var progress int
		res, err = v.Reindex(ctx, recall.ReindexOptions{All: true, Progress: func(done, total int) { progress = done }})
		if err != nil || res.Total != 3 || res.Embedded != 3 || progress != 3 {
			t.Fatalf("Reindex(All) = %+v, %v, progress %d: want all three", res, err, progress)
		}
		if hits := search(t, v, "red fish", 3); len(hits) != 3 || hits[0].Score < 0.999 {
			t.Fatalf("SearchVectors after a reindex = %+v", hits)
		}
	})
}
