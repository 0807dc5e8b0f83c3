package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
	"github.com/recall-mem/recall/rank"
)

// TestSearchVectors embeds memories with the built-in embedder and finds
// the nearest: a changed memory is re-embedded before the next search, a
// deleted one is gone, and another namespace's vectors are never hits.
func TestSearchVectors(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	db := mustOpen(t, dbURL, "")
	ms := postgres.NewMemoryService(db)
	vs := postgres.NewVectorService(db, hashing.NewHashing(0), nil)
	put := func(s *postgres.MemoryService, content string) string {
		t.Helper()
		res, err := s.PutMemory(ctx, &recall.Memory{Content: content})
		if err != nil {
			t.Fatal(err)
		}
		return res.Memory.ID
	}
	kube := put(ms, "kubernetes deployment rollout with helm charts")
	cook := put(ms, "bake sourdough bread with a long cold proof")
	for i := range 30 {
		put(ms, fmt.Sprintf("filler note number %d about gardening tomatoes", i))
	}
	// The same text in another namespace must not come back.
	other := postgres.NewMemoryService(mustOpen(t, dbURL, "other"))
	put(other, "kubernetes deployment rollout with helm charts")

	hits, err := vs.SearchVectors(ctx, "helm kubernetes rollout", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 || hits[0].MemoryID != kube || hits[0].Score < hits[1].Score {
		t.Fatalf("hits %+v, want %s first", hits, kube)
	}
	if hits[0].Score < 0.5 || hits[0].End != len("kubernetes deployment rollout with helm charts") {
		t.Fatalf("best hit %+v: want a high cosine over the whole content", hits[0])
	}

	if _, err := ms.UpdateMemory(ctx, cook, recall.MemoryUpdate{Content: ptr("helm kubernetes rollout")}); err != nil {
		t.Fatal(err)
	}
	if err := ms.DeleteMemory(ctx, kube); err != nil {
		t.Fatal(err)
	}
	hits, err = vs.SearchVectors(ctx, "helm kubernetes rollout", 40)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 31 || hits[0].MemoryID != cook || hits[0].Score < 0.99 {
		t.Fatalf("after the update and delete: %d hits, first %+v, want %s re-embedded first", len(hits), hits[0], cook)
	}
	for _, h := range hits {
		if h.MemoryID == kube {
			t.Fatal("a deleted memory is still a hit")
		}
	}
}

// TestSearchVectorsUsesHNSW checks that the nearest-neighbour query can be
// answered from the HNSW index rather than by a scan of every vector.
func TestSearchVectorsUsesHNSW(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	db := mustOpen(t, dbURL, "")
	ms := postgres.NewMemoryService(db)
	e := hashing.NewHashing(0)
	vs := postgres.NewVectorService(db, e, nil)
	for i := range 20 {
		if _, err := ms.PutMemory(ctx, &recall.Memory{Content: fmt.Sprintf("note %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := vs.Embed(ctx, 0); err != nil || n != 20 {
		t.Fatalf("embedded %d (%v), want 20", n, err)
	}
	conn := connect(t, dbURL)
	// Twenty rows are too few for the planner to prefer an index, so the
	// alternatives are priced out: the plan still sorts by distance unless
	// the index expression matches the query's.
	if _, err := conn.Exec(ctx, "SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off"); err != nil {
		t.Fatal(err)
	}
	q, _ := e.Embed(ctx, []string{"note"})
	rows, err := conn.Query(ctx, fmt.Sprintf(`EXPLAIN SELECT memory_id FROM memory_vectors v WHERE v.namespace = 'default' AND v.dim = %d
		ORDER BY v.embedding::vector(%d) <=> $1::real[]::vector(%d) LIMIT 10`, e.Dim(), e.Dim(), e.Dim()), q[0])
	var plan []string
	plan, err = collect(rows, err)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(plan, "\n"), fmt.Sprintf("Index Scan using memory_vectors_hnsw_%d", e.Dim())) {
		t.Fatalf("the plan does not use the HNSW index:\n%s", strings.Join(plan, "\n"))
	}
}

func collect(rows pgx.Rows, err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		out = append(out, line)
	}
	return out, rows.Err()
}

// TestHybridSearch runs recall's hybrid ranker over this store: full-text
// and vector candidates from PostgreSQL, fused and adjusted as on SQLite.
func TestHybridSearch(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, pgtest.NewDatabase(t), "")
	ms := postgres.NewMemoryService(db)
	vs := postgres.NewVectorService(db, hashing.NewHashing(0), nil)
	var want string
	for i, c := range []string{
		"The deploy pipeline runs on GitHub Actions and pushes images to GHCR",
		"Lunch on Fridays is pizza",
		"Rollbacks use helm rollback to the previous release",
	} {
		res, err := ms.PutMemory(ctx, &recall.Memory{Content: c})
		if err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			want = res.Memory.ID
		}
	}
	hybrid := &rank.Searcher{Text: ms, Vectors: vs, Memories: ms, Neighbors: ms}
	hits, err := hybrid.Search(ctx, recall.SearchQuery{Text: "how do we roll back a helm release", Limit: 2, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Memory.ID != want || hits[0].Explain.BM25Rank != 1 || hits[0].Explain.VectorRank != 1 {
		t.Fatalf("hits %+v, want %s first from both lists", hits, want)
	}
}

// TestSearchVectorsScansIndex checks that the store's own vector search
// query is planned through the HNSW index on a store of some size, with
// nothing priced out: a query joining memories before its ORDER BY was
// planned as a scan and sort of every vector instead.
func TestSearchVectorsScansIndex(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	e := hashing.NewHashing(64)
	st, err := postgres.OpenStore(ctx, dbURL, recall.StoreOptions{Embedding: &recall.EmbeddingOptions{Embedder: e, Inline: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const n = 3000
	for lo := 0; lo < n; lo += 1000 {
		var batch []*recall.Memory
		for i := lo; i < lo+1000; i++ {
			batch = append(batch, &recall.Memory{Content: fmt.Sprintf("note %d about topic %d", i, i%97)})
		}
		if _, err := st.Memories().ImportMemories(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	execSQL(t, dbURL, "ANALYZE")
	q, _ := e.Embed(ctx, []string{"topic 12"})
	rows, err := connect(t, dbURL).Query(ctx, "EXPLAIN "+postgres.NearestSQL(e.Dim()), "default", e.Model(), q[0], 141)
	plan, err := collect(rows, err)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(plan, "\n"), fmt.Sprintf("Index Scan using memory_vectors_hnsw_%d", e.Dim())) {
		t.Fatalf("the plan does not use the HNSW index:\n%s", strings.Join(plan, "\n"))
	}
}

// wordChunker makes a passage of every word: memories of many passages.
type wordChunker struct{}

func (wordChunker) Chunk(content string) []recall.Chunk {
	var out []recall.Chunk
	start := 0
	for i, w := range strings.Split(content, " ") {
		out = append(out, recall.Chunk{Index: i, Start: start, End: start + len(w)})
		start += len(w) + 1
	}
	return out
}

// TestSearchVectorsManyPassages asks for more memories than the nearest
// passages hold, so that the search asks the index for more and more
// candidates: past 1,000 of them it must stay within pgvector's bounds
// for hnsw.ef_search (it failed there with "outside the valid range").
func TestSearchVectorsManyPassages(t *testing.T) {
	ctx := context.Background()
	e := hashing.NewHashing(32)
	st, err := postgres.OpenStore(ctx, pgtest.NewDatabase(t), recall.StoreOptions{Embedding: &recall.EmbeddingOptions{Embedder: e, Chunker: wordChunker{}, Inline: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var batch []*recall.Memory
	for i := range 12 {
		// Every passage of a memory is the same, so the nearest
		// passages are all of one memory, then all of the next.
		words := make([]string, 150)
		for j := range words {
			words[j] = fmt.Sprintf("topic%d", i)
		}
		batch = append(batch, &recall.Memory{Content: strings.Join(words, " ")})
	}
	if _, err := st.Memories().ImportMemories(ctx, batch); err != nil {
		t.Fatal(err)
	}
	hits, err := st.Vectors().SearchVectors(ctx, "topic3", 12)
	if err != nil || len(hits) != 12 {
		t.Fatalf("%d hits (%v), want all 12 memories", len(hits), err)
	}
}

// TestSearchCatchUpAfterWrites checks that a search looks for memories
// without a current vector only when something was written since a
// search last found none: that look reads every memory of the namespace.
// A vector removed behind the store's back (no write) stays missing; the
// next write makes the search look again, and both are embedded.
func TestSearchCatchUpAfterWrites(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	st, err := postgres.OpenStore(ctx, dbURL, recall.StoreOptions{Embedding: &recall.EmbeddingOptions{Embedder: hashing.NewHashing(64)}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	put := func(content string) string {
		t.Helper()
		res, err := st.Memories().PutMemory(ctx, &recall.Memory{Content: content})
		if err != nil {
			t.Fatal(err)
		}
		return res.Memory.ID
	}
	found := func(query, id string) bool {
		t.Helper()
		hits, err := st.Vectors().SearchVectors(ctx, query, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if h.MemoryID == id {
				return true
			}
		}
		return false
	}
	zebra := put("zebra crossing near the school")
	if !found("zebra crossing", zebra) {
		t.Fatal("a queued memory was not embedded before the search")
	}
	execSQL(t, dbURL, "DELETE FROM memory_vectors WHERE memory_id = '"+zebra+"'")
	if found("zebra crossing", zebra) {
		t.Fatal("the search looked for stale vectors although nothing was written")
	}
	owl := put("owl hooting at night")
	if !found("owl hooting", owl) || !found("zebra crossing", zebra) {
		t.Fatal("after a write, the search did not embed what lacked a vector")
	}
}
