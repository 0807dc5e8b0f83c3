package recalltest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
)

// TestCopier runs the contract of a store's raw rows (StoreCopier): what
// one store dumps, a fresh store of the same backend loads and dumps
// again unchanged, loading twice changes nothing, and clashes are
// refused. open returns a fresh, empty store opened with o; the suite
// sets o.Embedding where it needs vectors.
func TestCopier(t *testing.T, open func(t *testing.T, o recall.StoreOptions) recall.Store) {
	ctx := context.Background()
	embedded := func(t *testing.T) recall.Store {
		return open(t, recall.StoreOptions{Embedding: &recall.EmbeddingOptions{
			Embedder: &WordEmbedder{}, Chunker: chunk.Splitter{MaxBytes: 64}, Inline: true}})
	}
	t.Run("RoundTrip", func(t *testing.T) {
		src := embedded(t)
		fillCopy(t, src)
		want := dumpAll(t, src)
		for kind, rows := range want {
			if len(rows) == 0 {
				t.Errorf("the filled store dumps no %s", kind)
			}
		}
		// Rows are dumped with their content, not as empty values.
		for kind, part := range map[recall.CopyKind]string{recall.CopySyncRecords: `"text":"The editor is helix."`,
			recall.CopyMeta: `{"key":"working_hash","value":"abc"}`, recall.CopySessions: `"agent":"claude"`} {
			if !slices.ContainsFunc(want[kind], func(row string) bool { return strings.Contains(row, part) }) {
				t.Errorf("no %s row holds %s: %v", kind, part, want[kind])
			}
		}
		dst := open(t, recall.StoreOptions{})
		for range 2 { // the second load replaces every row by itself
			for _, kind := range recall.CopyKinds {
				loadKind(t, src, dst, kind, 2)
			}
			if err := dst.Copier().FinishLoad(ctx); err != nil {
				t.Fatal(err)
			}
			if got := dumpAll(t, dst); !equalDumps(t, want, got) {
				t.Fatal("the target dumps other rows than the source")
			}
		}
		m, err := src.Memories().FindMemory(ctx, "editor", "")
		if err != nil {
			t.Fatal(err)
		}
		wantVs, _ := src.Memories().MemoryVersions(ctx, m.ID)
		gotVs, err := dst.Memories().MemoryVersions(ctx, m.ID)
		if err != nil || len(gotVs) != len(wantVs) || len(gotVs) != 3 {
			t.Fatalf("versions in the target: %d, %v; want %d", len(gotVs), err, len(wantVs))
		}
		for i := range gotVs {
			if gotVs[i].Op != wantVs[i].Op || !gotVs[i].ChangedAt.Equal(wantVs[i].ChangedAt) || gotVs[i].Memory.Content != wantVs[i].Memory.Content {
				t.Errorf("version %d: %+v, want %+v", i+1, gotVs[i], wantVs[i])
			}
		}
		// The copy is a working store: search finds the copied text, and
		// a new observation gets an id past the copied ones.
		hits, err := dst.Memories().Search(ctx, recall.SearchQuery{Text: "helix", Limit: 5})
		if err != nil || len(hits) != 1 || hits[0].Memory.ID != m.ID {
			t.Fatalf("search of the copy = %v, %v", hits, err)
		}
		obs := record(t, dst, &recall.Observation{At: day0.Add(72 * time.Hour), Type: "fact", Content: "after the copy"})
		for _, o := range want[recall.CopyObservations] {
			var old recall.Observation
			if err := json.Unmarshal([]byte(o), &old); err != nil {
				t.Fatal(err)
			}
			if obs[0].ID <= old.ID {
				t.Fatalf("new observation id %d is not past the copied id %d", obs[0].ID, old.ID)
			}
		}
	})
	t.Run("StaleVectorsStay", func(t *testing.T) {
		st := open(t, recall.StoreOptions{Embedding: &recall.EmbeddingOptions{
			Embedder: &WordEmbedder{}, Chunker: chunk.Splitter{}, Inline: false}})
		m := mustPut(t, st.Memories(), &recall.Memory{Content: "alpha beta"})
		if err := st.Vectors().DrainQueue(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, st, recall.CopyVectors); n != 1 {
			t.Fatalf("%d vectors after the drain, want 1", n)
		}
		if _, err := st.Memories().UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("gamma delta")}); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, st, recall.CopyVectors); n != 0 {
			t.Fatalf("%d vectors of an old text are dumped", n)
		}
	})
	t.Run("LeftForTheEmbedder", func(t *testing.T) {
		src := open(t, recall.StoreOptions{})
		mustPut(t, src.Memories(), &recall.Memory{Content: "alpha beta"})
		dst := open(t, recall.StoreOptions{Embedding: &recall.EmbeddingOptions{
			Embedder: &WordEmbedder{}, Chunker: chunk.Splitter{}, Inline: false}})
		loadKind(t, src, dst, recall.CopyMemories, 0)
		loadKind(t, src, dst, recall.CopyVersions, 0)
		if err := dst.Vectors().DrainQueue(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, dst, recall.CopyVectors); n != 1 {
			t.Fatalf("%d vectors after draining the copy's queue, want 1: a memory copied without vectors is embedded", n)
		}
		// Loaded again, the memory's vectors are the copy's: none.
		loadKind(t, src, dst, recall.CopyMemories, 0)
		if n := countRows(t, dst, recall.CopyVectors); n != 0 {
			t.Fatalf("%d vectors after loading the memory again, want 0", n)
		}
	})
	t.Run("Clashes", func(t *testing.T) {
		src, dst := open(t, recall.StoreOptions{}), open(t, recall.StoreOptions{})
		mustPut(t, src.Memories(), &recall.Memory{Key: "editor", Content: "vim"})
		mustPut(t, dst.Memories(), &recall.Memory{Key: "editor", Content: "helix"})
		err := src.Copier().DumpRows(ctx, recall.CopyMemories, 0, func(b *recall.CopyBatch) error {
			return dst.Copier().LoadRows(ctx, b)
		})
		wantCode(t, err, recall.ECONFLICT)
		if n := countRows(t, dst, recall.CopyMemories); n != 1 {
			t.Fatalf("the refused load left %d memories", n)
		}
		err = dst.Copier().LoadRows(ctx, &recall.CopyBatch{Vectors: []*recall.VectorRow{{MemoryID: "tr0000000001", Dim: 1, Vec: []float32{1}, Model: "m"}}})
		wantCode(t, err, recall.EINVALID)
	})
	t.Run("Batches", func(t *testing.T) {
		st := open(t, recall.StoreOptions{})
		for i := range 5 {
			mustPut(t, st.Memories(), &recall.Memory{Content: "memory " + string(rune('a'+i))})
		}
		var sizes []int
		err := st.Copier().DumpRows(ctx, recall.CopyMemories, 2, func(b *recall.CopyBatch) error {
			sizes = append(sizes, b.Len())
			return nil
		})
		if err != nil || !slices.Equal(sizes, []int{2, 2, 1}) {
			t.Fatalf("batches %v, %v; want [2 2 1]", sizes, err)
		}
		_, err = st.Copier().CountRows(ctx, "bogus")
		wantCode(t, err, recall.EINVALID)
		// A stored vector stored again stays as it is.
		e := &WordEmbedder{}
		vecs, err := e.Embed(ctx, []string{"alpha beta gamma", "delta"})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vecs {
			once := st.Copier().StoredVector(v)
			if twice := st.Copier().StoredVector(once); !slices.Equal(once, twice) || len(once) != len(v) {
				t.Fatalf("StoredVector: %v, then %v", once, twice)
			}
		}
	})
}

// fillCopy writes some of every kind a copy moves.
func fillCopy(t *testing.T, st recall.Store) {
	t.Helper()
	ctx := context.Background()
	mem := st.Memories()
	m := mustPut(t, mem, &recall.Memory{Key: "editor", Title: "Editor", Content: "The editor is vim, configured at length so that the passages are several.",
		Tags: []string{"tools", "editor"}, Metadata: json.RawMessage(`{"z": 1, "a": {"b": [1, 2]}}`), CreatedBy: "agent-7", Pinned: true, Tier: recall.TierWorking})
	if _, err := mem.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("The editor is helix."), Priority: ptr("high")}); err != nil {
		t.Fatal(err)
	}
	if _, err := mem.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{ReviewedAt: ptr(day0.Add(time.Hour + 123*time.Millisecond))}); err != nil {
		t.Fatal(err)
	}
	d := mustPut(t, mem, &recall.Memory{Content: "gone but kept in history", Status: recall.StatusArchived})
	if err := mem.DeleteMemory(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.Sessions(recall.SessionOptions{}).EnsureSession(ctx, &recall.Session{ID: "s1", Project: "p", Agent: "claude", StartedAt: day0}); err != nil {
		t.Fatal(err)
	}
	obs := record(t, st,
		&recall.Observation{At: day0.Add(9 * time.Hour), Type: "fact", Key: "city", Session: "s1", Content: "lives in Berlin", Metadata: json.RawMessage(`{"k":"v"}`)},
		&recall.Observation{At: day0.Add(10 * time.Hour), Type: "fact", Key: "city", Session: "s1", Content: "lives in Berlin"})
	if err := st.Observations().PinObservation(ctx, obs[1].ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Rollups(policy(t)).RunRollups(ctx, recall.RollupRun{Now: day0.AddDate(0, 0, 2)}); err != nil {
		t.Fatal(err)
	}
	sweep := recall.RetentionPolicy{Enabled: true, Days: map[string]int{recall.ObsCommand: 7}}
	if _, err := st.Forgetting().Sweep(ctx, sweep, day0.AddDate(0, 0, 3), false); err != nil {
		t.Fatal(err)
	}
	if err := st.Tiers().ApplyTierChanges(ctx, recall.TierChanges{Records: []recall.SyncRecord{{ID: m.ID, File: "CLAUDE.local.md", Text: "The editor is helix.", Tier: recall.TierWorking}},
		Meta: map[string]string{"working_hash": "abc"}}); err != nil {
		t.Fatal(err)
	}
}

// dumpAll returns every row of st as JSON, by kind.
func dumpAll(t *testing.T, st recall.Store) map[recall.CopyKind][]string {
	t.Helper()
	out := map[recall.CopyKind][]string{}
	for _, kind := range recall.CopyKinds {
		err := st.Copier().DumpRows(context.Background(), kind, 0, func(b *recall.CopyBatch) error {
			for _, rows := range []any{b.Memories, b.Versions, b.Observations, b.Sessions, b.Rollups, b.Vectors, b.SyncRecords, b.Meta, b.ForgetLog} {
				var list []json.RawMessage
				text, _ := json.Marshal(rows)
				if err := json.Unmarshal(text, &list); err != nil {
					return err
				}
				for _, r := range list {
					out[kind] = append(out[kind], string(r))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, st, kind); n != len(out[kind]) {
			t.Errorf("CountRows(%s) = %d, DumpRows gave %d", kind, n, len(out[kind]))
		}
	}
	return out
}

func equalDumps(t *testing.T, want, got map[recall.CopyKind][]string) bool {
	t.Helper()
	same := true
	for _, kind := range recall.CopyKinds {
		w, g := slices.Sorted(slices.Values(want[kind])), slices.Sorted(slices.Values(got[kind]))
		if !slices.Equal(w, g) {
			t.Errorf("%s:\n got %v\nwant %v", kind, g, w)
			same = false
		}
	}
	return same
}

func loadKind(t *testing.T, src, dst recall.Store, kind recall.CopyKind, size int) {
	t.Helper()
	err := src.Copier().DumpRows(context.Background(), kind, size, func(b *recall.CopyBatch) error {
		return dst.Copier().LoadRows(context.Background(), b)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", kind, err)
	}
}

func countRows(t *testing.T, st recall.Store, kind recall.CopyKind) int {
	t.Helper()
	n, err := st.Copier().CountRows(context.Background(), kind)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
