package sqlite_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// dirEmbedder gives each word a fixed random direction and a text the
// normalised sum of its words': distinct texts get distinct vectors, so
// searches have no ties that could be broken either way.
type dirEmbedder struct{}

func (dirEmbedder) Model() string { return "words" }
func (dirEmbedder) Dim() int      { return 24 }
func (dirEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 24)
		for _, w := range strings.Fields(t) {
			h := fnv.New64a()
			h.Write([]byte(w))
			rng := rand.New(rand.NewPCG(h.Sum64(), 1))
			for j := range v {
				v[j] += float32(rng.NormFloat64())
			}
		}
		var n float64
		for _, f := range v {
			n += float64(f * f)
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(n) + 1e-9)
		}
		out[i] = v
	}
	return out, nil
}

// wordText is a text of 3 to 7 words from a vocabulary of 60.
func wordText(rng *rand.Rand) string {
	ws := make([]string, 3+rng.IntN(5))
	for i := range ws {
		ws[i] = fmt.Sprintf("w%d", rng.IntN(60))
	}
	return strings.Join(ws, " ")
}

// openVectors opens a handle on path with a vector service, as a new
// process does, and checks the cache file against the database when the
// test ends.
func openVectors(t testing.TB, path string) (*sqlite.DB, *sqlite.MemoryService, *sqlite.VectorService) {
	t.Helper()
	db := sqlite.NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.VerifyVectorCache(); err != nil {
			t.Errorf("cache file at the end: %v", err)
		}
		db.Close()
	})
	vs := sqlite.NewVectorService(db, dirEmbedder{}, nil)
	vs.Inline = true
	return db, sqlite.NewMemoryService(db), vs
}

// vectorWriter imports and deletes memories with inline vectors; it runs
// as a separate process (see TestMain).
func vectorWriter(path, name string, rounds int) error {
	db := sqlite.NewDB(path)
	if err := db.Open(); err != nil {
		return err
	}
	defer db.Close()
	vs := sqlite.NewVectorService(db, dirEmbedder{}, nil)
	vs.Inline = true
	mem := sqlite.NewMemoryService(db)
	h := fnv.New64a()
	h.Write([]byte(name))
	rng := rand.New(rand.NewPCG(h.Sum64(), 2))
	ctx := context.Background()
	for r := 0; r < rounds; r++ {
		var ms []*recall.Memory
		for i := 0; i < 100; i++ {
			ms = append(ms, &recall.Memory{ID: recall.NewID(), Content: wordText(rng)})
		}
		if _, err := mem.ImportMemories(ctx, ms); err != nil {
			return err
		}
		for _, m := range ms[:10] {
			if err := mem.DeleteMemory(ctx, m.ID); err != nil {
				return err
			}
		}
		// A writer that searches too rewrites the cache when enough changed.
		if _, err := vs.SearchVectors(ctx, wordText(rng), 5); err != nil {
			return err
		}
	}
	return nil
}

// searchAll runs the queries with k hits each.
func searchAll(t *testing.T, vs *sqlite.VectorService, queries []string, k int) [][]recall.VectorHit {
	t.Helper()
	var out [][]recall.VectorHit
	for _, q := range queries {
		hits, err := vs.SearchVectors(context.Background(), q, k)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, hits)
	}
	return out
}

// fromDatabase is what a search finds with no cache file at all: the
// index built from the database's rows, as before the file existed.
func fromDatabase(t *testing.T, path string, queries []string, k int) [][]recall.VectorHit {
	t.Helper()
	db := sqlite.NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	vs := sqlite.NewVectorService(db, dirEmbedder{}, nil)
	saved, err := os.ReadFile(db.Path + "-vectors")
	if err == nil {
		os.Remove(db.Path + "-vectors")
		defer os.WriteFile(db.Path+"-vectors", saved, 0o600)
	}
	hits := searchAll(t, vs, queries, k)
	// The search wrote a new file; the saved one is put back.
	os.Remove(db.Path + "-vectors")
	return hits
}

func sameHits(t *testing.T, what string, got, want [][]recall.VectorHit) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		for i := range want {
			if i < len(got) && !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s: query %d found\n%v\nwant (from the database)\n%v", what, i, got[i], want[i])
			}
		}
		t.Fatalf("%s: %d result lists, want %d", what, len(got), len(want))
	}
}

// importWords imports n memories of wordText and returns them.
func importWords(t *testing.T, mem *sqlite.MemoryService, rng *rand.Rand, n int) []*recall.Memory {
	t.Helper()
	var ms []*recall.Memory
	for i := 0; i < n; i++ {
		ms = append(ms, &recall.Memory{ID: recall.NewID(), Content: wordText(rng)})
	}
	if _, err := mem.ImportMemories(context.Background(), ms); err != nil {
		t.Fatal(err)
	}
	return ms
}

func queries(rng *rand.Rand, n int) []string {
	var qs []string
	for i := 0; i < n; i++ {
		qs = append(qs, wordText(rng))
	}
	return qs
}

// Several processes write one store while handles search it and rewrite
// the cache file: every search through a cache, however stale, finds what
// a search from the database finds.
func TestVectorCache_Processes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	db, mem, vs := openVectors(t, path)
	rng := rand.New(rand.NewPCG(7, 8))
	ms := importWords(t, mem, rng, 2100)
	qs := queries(rng, 12)
	searchAll(t, vs, qs, 20) // writes the first cache file
	if _, err := os.Stat(path + "-vectors"); err != nil {
		t.Fatalf("no cache file: %v", err)
	}
	// Two writer processes add 2,200 rows and delete 220 between them:
	// enough changes that searching handles write the file again.
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, name := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "RECALL_TEST_VECTOR_WRITER="+path, "RECALL_TEST_WRITER_NAME="+name, "RECALL_TEST_VECTOR_ROUNDS=11")
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("writer %s: %v: %s", name, err, out)
			}
		}()
	}
	// Meanwhile this process deletes and searches, through its long-lived
	// handle and through new ones that start from whatever file is there.
	for i := 0; i < 6; i++ {
		if err := mem.DeleteMemory(ctx, ms[i*7].ID); err != nil {
			t.Fatal(err)
		}
		searchAll(t, vs, qs[:3], 10)
		_, _, fresh := openVectors(t, path)
		searchAll(t, fresh, qs[:3], 10)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	want := fromDatabase(t, path, qs, 20)
	sameHits(t, "long-lived handle", searchAll(t, vs, qs, 20), want)
	_, _, fresh := openVectors(t, path)
	sameHits(t, "new handle on the cache file", searchAll(t, fresh, qs, 20), want)

	// A handle that started from the file sees enough changes to write it
	// again: the file's rows deleted since and the rows added since go
	// out together, and the next handle starts from that.
	for _, m := range ms[100:200] {
		if err := mem.DeleteMemory(ctx, m.ID); err != nil {
			t.Fatal(err)
		}
	}
	importWords(t, mem, rng, 2000)
	before, _ := os.Stat(path + "-vectors")
	want = fromDatabase(t, path, qs, 20)
	sameHits(t, "handle on the file, after 2,100 changes", searchAll(t, fresh, qs, 20), want)
	if after, _ := os.Stat(path + "-vectors"); os.SameFile(before, after) {
		t.Fatal("the cache file was not written again")
	}
	if err := db.VerifyVectorCache(); err != nil {
		t.Fatalf("the file written from a mapped one: %v", err)
	}
	_, _, next := openVectors(t, path)
	sameHits(t, "new handle on the rewritten file", searchAll(t, next, qs, 20), want)
}

// A cache file cut short or damaged, as a crash or a full disk leaves it,
// is refused and rebuilt; an old file is brought up to date; a file newer
// than the database (the database put back from a copy) is not trusted.
func TestVectorCache_StaleAndTorn(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	cache := path + "-vectors"
	db, mem, vs := openVectors(t, path)
	rng := rand.New(rand.NewPCG(9, 10))
	ms := importWords(t, mem, rng, 2050)
	qs := queries(rng, 8)
	searchAll(t, vs, qs, 15)
	good, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	// Changes after the file: a new handle applies them on top of it.
	for _, m := range ms[:30] {
		if err := mem.DeleteMemory(ctx, m.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := mem.PutMemory(ctx, &recall.Memory{Content: qs[0]}); err != nil {
		t.Fatal(err)
	}
	want := fromDatabase(t, path, qs, 15)
	if want[0][0].Score < 0.999 {
		t.Fatalf("the memory equal to query 0 is not first: %v", want[0])
	}
	os.WriteFile(cache, good, 0o600)
	_, _, v2 := openVectors(t, path)
	sameHits(t, "stale file", searchAll(t, v2, qs, 15), want)

	for name, torn := range map[string][]byte{
		"cut":       good[:len(good)*2/3],
		"no header": append(make([]byte, 256), good[256:]...),
		"no end":    append(append([]byte(nil), good[:len(good)-12]...), make([]byte, 12)...),
		"bit flip":  flip(good, 300),
		"empty":     nil,
	} {
		if err := os.WriteFile(cache, torn, 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, v := openVectors(t, path)
		sameHits(t, name, searchAll(t, v, qs, 15), want)
		// The handle rebuilt from the database and wrote a sound file.
		if err := db.VerifyVectorCache(); err != nil {
			t.Fatalf("%s: after the rebuild: %v", name, err)
		}
		if now, _ := os.ReadFile(cache); string(now) == string(torn) {
			t.Fatalf("%s: the damaged file was left in place", name)
		}
	}

	// The database goes back to an older copy (same epoch, fewer rows)
	// while the cache file is from later.
	snap := t.TempDir()
	if _, err := db.Backup(ctx, filepath.Join(snap, "recall.db")); err != nil {
		t.Fatal(err)
	}
	importWords(t, mem, rng, 40)
	os.Remove(cache) // so that the next search writes one with the new rows
	_, _, v3 := openVectors(t, path)
	searchAll(t, v3, qs, 15)
	later, _ := os.ReadFile(cache)
	restored := filepath.Join(snap, "recall.db")
	os.WriteFile(restored+"-vectors", later, 0o600)
	want = fromDatabase(t, restored, qs, 15)
	os.WriteFile(restored+"-vectors", later, 0o600)
	_, _, v4 := openVectors(t, restored)
	sameHits(t, "file newer than the database", searchAll(t, v4, qs, 15), want)

	// The older copy then gets as many rows as the file has beyond it:
	// the same epoch, the same maxSeq and maxTomb, the same count, other
	// memories. The file's newest row tells them apart.
	_, rmem, _ := openVectors(t, restored)
	importWords(t, rmem, rng, 40)
	want = fromDatabase(t, restored, qs, 15)
	os.WriteFile(restored+"-vectors", later, 0o600)
	_, _, v5 := openVectors(t, restored)
	sameHits(t, "file of another history, same counts", searchAll(t, v5, qs, 15), want)
}

func flip(b []byte, at int) []byte {
	c := append([]byte(nil), b...)
	c[at] ^= 0x40
	return c
}
