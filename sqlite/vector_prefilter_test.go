package sqlite

import (
	"cmp"
	"context"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// checkCodes fails unless every live row's code and weight are those
// signCode makes from the row and the index's mean.
func checkCodes(t *testing.T, x *vectorIndex, when string) {
	t.Helper()
	if x.mean == nil {
		t.Fatalf("%s: no codes", when)
	}
	code := make([]uint64, codeWords(x.dim))
	for r := 0; r < x.baseLen()+len(x.seqs); r++ {
		if r < x.baseLen() && x.isDead(r) {
			continue
		}
		w := signCode(code, x.rowQ8(r), x.rowScale(r), x.mean)
		if !slices.Equal(code, x.rowCode(r)) || w != x.rowWeight(r) {
			t.Fatalf("%s: row %d (seq %d) has code %x weight %v, its row gives %x %v", when, r, x.rowSeq(r), x.rowCode(r), x.rowWeight(r), code, w)
		}
	}
	if len(x.codes) != len(x.seqs)*codeWords(x.dim) || len(x.weights) != len(x.seqs) {
		t.Fatalf("%s: %d codes and %d weights for %d rows added", when, len(x.codes), len(x.weights), len(x.seqs))
	}
}

// The codes summarise the rows they stand for after rows are added and
// removed (a removal moves the last row into the gap), after the index is
// written to its file and opened from it, and after rows added to and
// removed from an index opened from the file.
func TestVectorCodes_AgreeWithRows(t *testing.T) {
	for _, dim := range []int{512, 40, 65} {
		rng := rand.New(rand.NewPCG(7, uint64(dim)))
		x, _ := randIndex(rng, dim, 300)
		x.buildCodes()
		checkCodes(t, x, "built")
		for i := 0; i < 50; i++ {
			x.add(int64(301+i), randVec(rng, dim))
		}
		for _, seq := range []int64{1, 17, 300, 320, 350} {
			x.remove(seq)
		}
		checkCodes(t, x, "added and removed")
		x.maxSeq, x.epoch, x.loaded = 350, "e", true
		y := throughFile(t, x)
		if !slices.Equal(y.mean, x.mean) || y.codedRows != x.codedRows {
			t.Fatalf("dim %d: the file's mean or coded rows differ from the index's", dim)
		}
		checkCodes(t, y, "reloaded")
		for i := 0; i < 20; i++ {
			y.add(int64(351+i), randVec(rng, dim))
		}
		for _, seq := range []int64{2, 299, 355, 370} {
			y.remove(seq)
		}
		checkCodes(t, y, "changed after reloading")
	}
}

// throughFile writes x to a cache file and returns the index opened from
// it.
func throughFile(t *testing.T, x *vectorIndex) *vectorIndex {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cache")
	if err := x.writeCache(path, cacheProbe{}); err != nil {
		t.Fatal(err)
	}
	y, err := openCache(path, x.model, x.dim)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

func randVec(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for j := range v {
		v[j] = float32(rng.NormFloat64())
	}
	return v
}

// An index keeps no codes below prefilterMinRows, takes them once it
// reaches it, and takes them again (a new mean) once its rows double.
func TestVectorCodes_BuiltFromSizeAndRetakenWhenDoubled(t *testing.T) {
	defer func(n int) { prefilterMinRows = n }(prefilterMinRows)
	prefilterMinRows = 100
	rng := rand.New(rand.NewPCG(8, 9))
	x, _ := randIndex(rng, 16, 99)
	x.ensureCodes()
	if x.mean != nil {
		t.Fatal("codes below prefilterMinRows")
	}
	x.add(100, randVec(rng, 16))
	x.ensureCodes()
	if x.mean == nil || x.codedRows != 100 {
		t.Fatalf("codes at 100 rows: mean %v, coded rows %d", x.mean != nil, x.codedRows)
	}
	for i := 101; i < 200; i++ {
		x.add(int64(i), randVec(rng, 16))
	}
	x.ensureCodes()
	if x.codedRows != 100 {
		t.Fatalf("codes retaken at %d rows", x.len())
	}
	checkCodes(t, x, "grown")
	x.add(200, randVec(rng, 16))
	x.ensureCodes()
	if x.codedRows != 200 {
		t.Fatalf("codes not retaken at 200 rows: coded rows %d", x.codedRows)
	}
	checkCodes(t, x, "retaken")
}

// With every row passed on, the scan through the codes finds exactly what
// the exact scan finds (rows, order, scores), over a file's rows, rows
// added since and removals of both, across workers.
func TestPrefilter_AllRowsPassedOnIsExact(t *testing.T) {
	for _, dim := range []int{512, 40} {
		rng := rand.New(rand.NewPCG(4, uint64(dim)))
		const n, added = 6000, 900
		y := fileIndexAndAdded(t, rng, dim, n, added)
		for _, seq := range []int64{1, 255, 4000, n, n + 3, n + added} {
			y.remove(seq)
		}
		for q := 0; q < 10; q++ {
			query := randVec(rng, dim)
			for _, keep := range []int{1, 64, 300} {
				want := y.find(query, keep, 0)
				for _, m := range []int{y.len(), y.len() + 1000} {
					if got := y.find(query, keep, m); !slices.Equal(got, want) {
						t.Fatalf("dim %d, query %d, keep %d, m %d: differs from the exact scan", dim, q, keep, m)
					}
				}
			}
		}
	}
}

// fileIndexAndAdded is an index of n random rows with codes, opened from
// its cache file, with added random rows added since (seqs 1 to
// n+added).
func fileIndexAndAdded(t *testing.T, rng *rand.Rand, dim, n, added int) *vectorIndex {
	t.Helper()
	x, _ := randIndex(rng, dim, n)
	x.buildCodes()
	x.maxSeq, x.epoch, x.loaded = int64(n), "e", true
	y := throughFile(t, x)
	for i := 0; i < added; i++ {
		y.add(int64(n+1+i), randVec(rng, dim))
	}
	return y
}

// clusteredIndex is n rows of dim dimensions around clusters centres,
// all offset by one common vector (as sentence vectors share a
// direction), normalised.
func clusteredIndex(rng *rand.Rand, dim, n, clusters int) (*vectorIndex, [][]float32) {
	common := randVec(rng, dim)
	centres := make([][]float32, clusters)
	for c := range centres {
		centres[c] = randVec(rng, dim)
	}
	x := newVectorIndex("m", dim)
	for i := 0; i < n; i++ {
		c := centres[rng.IntN(clusters)]
		v := make([]float32, dim)
		for j := range v {
			v[j] = 2*common[j] + c[j] + 0.7*float32(rng.NormFloat64())
		}
		x.add(int64(i+1), unit(v))
	}
	return x, centres
}

func unit(v []float32) []float32 {
	var s float64
	for _, f := range v {
		s += float64(f) * float64(f)
	}
	for j := range v {
		v[j] /= float32(math.Sqrt(s))
	}
	return v
}

// top10 is the seqs of the ten candidates with the best re-score, as the
// rerank orders them.
func top10(cs []candidate) []int64 {
	cs = slices.Clone(cs)
	slices.SortFunc(cs, func(a, b candidate) int {
		if a.exact != b.exact {
			return cmp.Compare(b.exact, a.exact)
		}
		return cmp.Compare(a.seq, b.seq)
	})
	var out []int64
	for _, c := range cs[:min(10, len(cs))] {
		out = append(out, c.seq)
	}
	return out
}

// On a seeded clustered set whose vectors share a direction, the top 10
// through the codes, passing on 1% of the rows, keep nearly all of the
// exact top 10 (0.950 when written; the bound is a little below), and
// more than codes taken without the mean, whose bits are mostly alike
// (0.829).
func TestPrefilter_ClusteredOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const dim, n = 256, 20000
	x, centres := clusteredIndex(rng, dim, n, 40)
	x.buildCodes()
	var queries [][]float32
	for range 100 {
		c := centres[rng.IntN(len(centres))]
		query := make([]float32, dim)
		for j := range query {
			query[j] = c[j] + 0.7*float32(rng.NormFloat64())
		}
		queries = append(queries, query)
	}
	overlap := func() float64 {
		var sum float64
		for _, q := range queries {
			want, got := top10(x.find(q, 64, 0)), top10(x.find(q, 64, n/100))
			same := 0
			for _, s := range got {
				if slices.Contains(want, s) {
					same++
				}
			}
			sum += float64(same) / float64(len(want))
		}
		return sum / float64(len(queries))
	}
	centred := overlap()
	// The same codes against a zero mean: the signs of the raw components.
	x.mean = make([]float32, dim)
	for r := range x.seqs {
		x.weights[r] = signCode(x.rowCode(r), x.rowQ8(r), x.rowScale(r), x.mean)
	}
	x.samples.drop() // the codes were rewritten in place, as no change of the index does
	raw := overlap()
	t.Logf("mean top-10 overlap through the codes: %.4f centred, %.4f not", centred, raw)
	if centred < 0.93 || centred <= raw {
		t.Fatalf("mean top-10 overlap %.3f through the codes (%.3f without the mean), want at least 0.93 and more than without", centred, raw)
	}
}

// collect8 is collect's general loop made for 8-word codes: the same rows
// pass, at every dimension that has 8 words, with removals, and with no
// rows at all.
func TestPrefilter_Collect8MatchesGeneral(t *testing.T) {
	for _, dim := range []int{449, 500, 511, 512} {
		rng := rand.New(rand.NewPCG(13, uint64(dim)))
		x, _ := randIndex(rng, dim, 700)
		x.buildCodes()
		for _, seq := range []int64{3, 300, 699} {
			x.remove(seq)
		}
		cq := newCodeQuery(randVec(rng, dim))
		for _, sg := range x.segments(0, x.baseLen()+len(x.seqs)) {
			est := make([]float32, 0, sg.hi-sg.lo)
			for r := sg.lo; r < sg.hi; r++ {
				est = append(est, sg.estimate(r-sg.first, cq))
			}
			slices.Sort(est)
			for _, at := range []float32{float32(math.Inf(-1)), est[len(est)/2], est[len(est)-5]} {
				var general []int
				for r := sg.lo; r < sg.hi; r++ {
					if e := sg.estimate(r-sg.first, cq); e >= at && !sg.isDead(r-sg.first) {
						general = append(general, r)
					}
				}
				if got := sg.collect8(nil, cq, at, float32(math.Inf(1))); !slices.Equal(got, general) {
					t.Fatalf("dim %d, from %v: collect8 passes %d rows, the general loop %d", dim, at, len(got), len(general))
				}
			}
		}
		empty := segment{dim: dim}
		if got := empty.collect8(nil, cq, float32(math.Inf(-1)), float32(math.Inf(1))); len(got) != 0 {
			t.Fatalf("dim %d: %d rows from no rows", dim, len(got))
		}
	}
}

// The estimate is the Hamming form of <q, s>: with the query's signs
// equal to a row's code it is dim times the weight, with all differing
// minus that, for dimensions that do and do not fill the last word.
func TestCodeQuery_Dot(t *testing.T) {
	for _, dim := range []int{1, 63, 64, 65, 130} {
		q := make([]float32, dim)
		for j := range q {
			q[j] = float32(j%3) - 1
		}
		cq := newCodeQuery(q)
		if got := cq.dot(cq.signs); got != float32(dim) {
			t.Fatalf("dim %d: dot with its own signs %v", dim, got)
		}
		flipped := slices.Clone(cq.signs)
		for j := 0; j < dim; j++ {
			flipped[j/64] ^= 1 << (j % 64)
		}
		if got := cq.dot(flipped); got != -float32(dim) {
			t.Fatalf("dim %d: dot with the opposite signs %v", dim, got)
		}
	}
}

// A cache file of version 2 (no codes) is refused, not read as version 3,
// and the search that finds it rebuilds the index from the database.
func TestVectorCache_Version2Refused(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 3))
	x, _ := randIndex(rng, 4, 3)
	path := filepath.Join(t.TempDir(), "c")
	if err := os.WriteFile(path, version2File(x, "e", 3), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := openCache(path, "m", 4); err == nil {
		t.Fatal("a version 2 file was opened")
	}
}

// version2File is a cache file as version 2 wrote it: the same sections
// without codes, and a header without the codes' fields.
func version2File(x *vectorIndex, epoch string, maxSeq int64) []byte {
	le := binary.LittleEndian
	n := len(x.seqs)
	b := []byte("RCLVIDX2")
	b = le.AppendUint32(b, uint32(x.dim))
	b = le.AppendUint32(b, 0)
	b = le.AppendUint64(b, uint64(n))
	b = le.AppendUint64(b, uint64(maxSeq))
	b = le.AppendUint64(b, 0)
	b = le.AppendUint64(b, uint64(256+n*(12+x.dim)+12))
	var meta, q8 []byte
	for _, s := range x.seqs {
		meta = le.AppendUint64(meta, uint64(s))
	}
	for _, s := range x.scales {
		meta = le.AppendUint32(meta, math.Float32bits(s))
	}
	q8 = append(q8, int8AsBytes(x.q8)...)
	b = le.AppendUint32(b, crc32.ChecksumIEEE(meta))
	b = le.AppendUint32(b, crc32.ChecksumIEEE(q8))
	b = le.AppendUint64(b, 0)
	b = le.AppendUint64(b, 0)
	b = le.AppendUint16(b, uint16(len(x.model)))
	b = append(b, x.model...)
	b = le.AppendUint16(b, uint16(len(epoch)))
	b = append(b, epoch...)
	b = append(b, make([]byte, 252-len(b))...)
	b = le.AppendUint32(b, crc32.ChecksumIEEE(b))
	hdrCRC := b[252:256]
	b = append(b, meta...)
	b = append(b, q8...)
	b = append(b, "RCLVEND2"...)
	return append(b, hdrCRC...)
}

// A store whose cache file is of version 2 (written by the release
// before codes) answers as before: the file is not read, the index is
// built from the database and written again as version 3, with codes.
func TestVectorService_Version2CacheRebuilt(t *testing.T) {
	defer func(n int) { prefilterMinRows = n }(prefilterMinRows)
	prefilterMinRows = 0
	ctx := context.Background()
	open := func(path string) (*DB, *VectorService) {
		db := NewDB(path)
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		vs := NewVectorService(db, denseEmbedder{}, nil)
		vs.Inline = true
		return db, vs
	}
	path := filepath.Join(t.TempDir(), "recall.db")
	db, vs := open(path)
	var ms []*recall.Memory
	for i := 0; i < cacheEvery+10; i++ {
		ms = append(ms, &recall.Memory{ID: recall.NewID(), Content: strings.Repeat("w ", i%8+1)})
	}
	if _, err := NewMemoryService(db).ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	want, err := vs.SearchVectors(ctx, "w w w", 20)
	if err != nil {
		t.Fatal(err)
	}
	x := vs.index.Load()
	if x.base != nil || x.mean == nil {
		t.Fatal("want an index built from the database, with codes")
	}
	if err := os.WriteFile(db.vectorCachePath(), version2File(x, x.epoch, x.maxSeq), 0o600); err != nil {
		t.Fatal(err)
	}
	_, vs2 := open(path)
	got, err := vs2.SearchVectors(ctx, "w w w", 20)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("through a version 2 file: %v, want %v", got, want)
	}
	if y := vs2.index.Load(); y.base != nil {
		t.Fatal("the version 2 file was used")
	}
	y, err := openCache(db.vectorCachePath(), "dense", 8)
	if err != nil {
		t.Fatalf("the file was not rewritten: %v", err)
	}
	checkCodes(t, y, "rewritten file")
	if err := db.VerifyVectorCache(); err != nil {
		t.Fatal(err)
	}
}

// VerifyVectorCache finds a code that does not summarise its row, though
// its CRC is right.
func TestVerifyVectorCache_FindsWrongCode(t *testing.T) {
	defer func(n int) { prefilterMinRows = n }(prefilterMinRows)
	prefilterMinRows = 0
	ctx := context.Background()
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	vs := NewVectorService(db, denseEmbedder{}, nil)
	vs.Inline = true
	var ms []*recall.Memory
	for i := 0; i < cacheEvery+10; i++ {
		ms = append(ms, &recall.Memory{ID: recall.NewID(), Content: strings.Repeat("w ", i%8+1)})
	}
	if _, err := NewMemoryService(db).ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	if _, err := vs.SearchVectors(ctx, "w", 1); err != nil {
		t.Fatal(err)
	}
	if err := db.VerifyVectorCache(); err != nil {
		t.Fatal(err)
	}
	x := vs.index.Load()
	x.codes[0] ^= 1
	if err := x.writeCache(db.vectorCachePath(), x.probe); err != nil {
		t.Fatal(err)
	}
	if err := db.VerifyVectorCache(); err == nil {
		t.Fatal("a wrong code passed")
	}
}

// Sparse rows get no codes, and a sparse query is scanned exactly even
// where there are codes: the codes rank sparse vectors badly.
func TestPrefilter_SparseScannedExactly(t *testing.T) {
	defer func(n int) { prefilterMinRows = n }(prefilterMinRows)
	prefilterMinRows = 1000
	rng := rand.New(rand.NewPCG(21, 22))
	sparse := newVectorIndex("m", 64)
	for i := 0; i < 5000; i++ {
		v := make([]float32, 64)
		for k := 0; k < 10; k++ {
			v[rng.IntN(64)] = float32(rng.NormFloat64())
		}
		sparse.add(int64(i+1), v)
	}
	sparse.ensureCodes()
	if sparse.mean != nil {
		t.Fatal("codes for sparse rows")
	}
	dense, _ := randIndex(rng, 64, 5000)
	dense.ensureCodes()
	if dense.mean == nil {
		t.Fatal("no codes for dense rows")
	}
	q := randVec(rng, 64)
	if m := dense.prefilterSize(q, 64); m == 0 {
		t.Fatal("a dense query is not prefiltered")
	}
	clear(q[:50])
	if m := dense.prefilterSize(q, 64); m != 0 {
		t.Fatalf("a query of 14 non-zero components of 64 passes %d rows on", m)
	}
}

// denseEmbedder is spikeEmbedder's vectors plus a ramp, so that every
// component is non-zero and an index of its vectors keeps codes.
type denseEmbedder struct{ spikeEmbedder }

func (denseEmbedder) Model() string { return "dense" }
func (denseEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out, err := spikeEmbedder{}.Embed(ctx, texts)
	for _, v := range out {
		for j := range v {
			v[j] += float32(j+1) / 16
		}
	}
	return out, err
}

// cpuNow is this process's user and system CPU time so far.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Codes taken over no rows (an index that starts empty with the
// prefilter on at every size) are still written to the file with the
// rows added since, and read back.
func TestVectorCodes_FromEmptyIndexKeptInFile(t *testing.T) {
	defer func(n int) { prefilterMinRows = n }(prefilterMinRows)
	prefilterMinRows = 0
	x := newVectorIndex("m", 16)
	x.ensureCodes()
	x.add(1, randVec(rand.New(rand.NewPCG(1, 1)), 16))
	x.maxSeq, x.epoch, x.loaded = 1, "e", true
	checkCodes(t, throughFile(t, x), "reloaded")
}
