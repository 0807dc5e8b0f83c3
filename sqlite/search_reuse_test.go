package sqlite_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// rankings returns the ids and scores of the top 10 of each query.
func rankings(t *testing.T, s *sqlite.MemoryService, queries []string) [][]string {
	t.Helper()
	var out [][]string
	for _, q := range queries {
		hits, err := s.Search(context.Background(), recall.SearchQuery{Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var r []string
		for _, h := range hits {
			r = append(r, h.Memory.ID+" "+strconvF(h.Score))
		}
		out = append(out, r)
	}
	return out
}

// A handle that keeps its search statements prepared and reads the file
// through a mapping ranks exactly as a handle opened after other handles
// wrote: inserts, updates and deletes by another handle (another process)
// are seen, on a store large enough that the search prunes terms.
func TestSearch_ReusedHandleSeesWrites(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	open := func() *sqlite.MemoryService {
		db := sqlite.NewDB(path)
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return sqlite.NewMemoryService(db)
	}
	long, writer := open(), open()
	r := rand.New(rand.NewPCG(11, 12))
	z := rand.NewZipf(r, 1.1, 1, 3000)
	var ids []string
	for b := 0; b < 3; b++ {
		var batch []*recall.Memory
		for i := 0; i < 1000; i++ {
			m := &recall.Memory{ID: recall.NewID(), Title: benchText(r, z, 3), Content: benchText(r, z, 25)}
			batch = append(batch, m)
			ids = append(ids, m.ID)
		}
		if _, err := writer.ImportMemories(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	var qs []string
	for i := 0; i < 40; i++ {
		qs = append(qs, benchText(r, z, 2+r.IntN(5)))
	}
	first := rankings(t, long, qs)
	if !reflect.DeepEqual(first, rankings(t, open(), qs)) {
		t.Fatal("two handles on one store rank differently")
	}
	for round := 0; round < 3; round++ {
		for i := 0; i < 50; i++ {
			id := ids[r.IntN(len(ids))]
			switch i % 3 {
			case 0:
				text := benchText(r, z, 20)
				if _, err := writer.UpdateMemory(ctx, id, recall.MemoryUpdate{Content: &text}); err != nil && recall.ErrorCode(err) != recall.ENOTFOUND {
					t.Fatal(err)
				}
			case 1:
				if err := writer.DeleteMemory(ctx, id); err != nil && recall.ErrorCode(err) != recall.ENOTFOUND {
					t.Fatal(err)
				}
			default:
				if _, err := writer.PutMemory(ctx, &recall.Memory{Content: qs[r.IntN(len(qs))]}); err != nil {
					t.Fatal(err)
				}
			}
		}
		got, want := rankings(t, long, qs), rankings(t, open(), qs)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: the long-lived handle ranks\n%v\nwant\n%v", round, got, want)
		}
		if reflect.DeepEqual(got, first) {
			t.Fatalf("round %d: 150 writes changed no ranking", round)
		}
	}
}

func strconvF(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
