package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/hashing"
)

// rerankFromStored is the re-score as it was made before the index's rows
// were trusted to be the stored vectors: each candidate's vector read back
// from SQLite and decoded, the best passage of each memory kept.
func rerankFromStored(ctx context.Context, db *DB, query []float32, cands []candidate, k int) ([]recall.VectorHit, error) {
	seqs := make([]int64, len(cands))
	for i, c := range cands {
		seqs[i] = c.seq
	}
	rows, err := db.readQuery(ctx, `SELECT seq, memory_id, memory_seq, chunk, span_start, span_end, vec FROM memory_vectors
		WHERE seq IN `+inList, jsonInts(seqs))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type exact struct {
		seq int64
		hit recall.VectorHit
	}
	var all []exact
	var blob sql.RawBytes
	v := make([]float32, len(query))
	for rows.Next() {
		var e exact
		if err := rows.Scan(&e.seq, &e.hit.MemoryID, &e.hit.Row, &e.hit.Chunk, &e.hit.Start, &e.hit.End, &blob); err != nil {
			return nil, err
		}
		if decodeVector(v, blob) {
			e.hit.Score = float64(recall.Dot(query, v))
			all = append(all, e)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].hit.Score != all[j].hit.Score {
			return all[i].hit.Score > all[j].hit.Score
		}
		return all[i].seq < all[j].seq
	})
	seen := map[string]bool{}
	var out []recall.VectorHit
	for _, e := range all {
		if !seen[e.hit.MemoryID] && len(out) < k {
			seen[e.hit.MemoryID] = true
			out = append(out, e.hit)
		}
	}
	return out, nil
}

// The re-score made from the index's rows gives the hits (memories,
// passages, spans and scores, bit for bit) that reading every candidate's
// vector back from SQLite gave, for 200 queries of 512-dimensional
// hashing vectors over memories of several passages, some deleted after
// the index was built.
func TestVectorService_RerankFromIndexMatchesStored(t *testing.T) {
	ctx := context.Background()
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e := hashing.NewHashing(512)
	vs := NewVectorService(db, e, chunk.Splitter{MaxBytes: 80})
	vs.Inline = true
	mem := NewMemoryService(db)
	rng := rand.New(rand.NewPCG(7, 8))
	words := strings.Fields("apple river stone cloud garden kettle lamp orbit piano quartz rocket saddle tiger umbrella violin walnut yacht zebra amber basil cedar delta ember fjord glacier harbor island jungle")
	sentence := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(words[rng.IntN(len(words))] + " ")
		}
		return b.String()
	}
	var ms []*recall.Memory
	for i := 0; i < 1500; i++ {
		content := sentence(6)
		for p := rng.IntN(3); p > 0; p-- {
			content += "\n\n" + sentence(8)
		}
		ms = append(ms, &recall.Memory{ID: recall.NewID(), Title: fmt.Sprint("m", i), Content: content})
	}
	if _, err := mem.ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	if _, err := vs.SearchVectors(ctx, "apple", 10); err != nil { // builds the index
		t.Fatal(err)
	}
	idx := vs.index.Load()
	differs := 0
	for q := 0; q < 200; q++ {
		if q == 100 {
			// Deleted after the scan's index was taken: both re-scores
			// skip them, as the rows are gone from SQLite.
			for _, m := range ms[:60] {
				if err := mem.DeleteMemory(ctx, m.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		text := sentence(1 + q%5)
		vecs, err := e.Embed(ctx, []string{text})
		if err != nil {
			t.Fatal(err)
		}
		cands := idx.candidates(vecs[0], 64)
		got, err := vs.rerank(ctx, cands, 10)
		if err != nil {
			t.Fatal(err)
		}
		want, err := rerankFromStored(ctx, db, vecs[0], cands, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != 10 {
			t.Fatalf("query %q: %d hits from the stored vectors, want 10", text, len(want))
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("query %q:\n got %v\nwant %v", text, got, want)
		}
		for i, c := range cands[:10] {
			if c.score != c.exact && i < len(got) {
				differs++
			}
		}
	}
	if differs == 0 {
		t.Fatal("no candidate's re-score differed from its scan score: the test would not see a re-score left out")
	}
}
