package sqlite

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/recalltest"
)

// TestHalf_RoundTrip: every float16 widens and narrows back to itself.
func TestHalf_RoundTrip(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := fromHalf(uint16(h))
		if math.IsNaN(float64(f)) {
			if back := toHalf(f); back&0x7c00 != 0x7c00 || back&0x3ff == 0 {
				t.Fatalf("NaN %#04x came back as %#04x", h, back)
			}
			continue
		}
		if back := toHalf(f); back != uint16(h) {
			t.Fatalf("%#04x -> %v -> %#04x", h, f, back)
		}
	}
}

// TestHalf_Rounding: narrowing picks the nearest float16, so the error is
// at most half a step (2^-11 relative for normal numbers).
func TestHalf_Rounding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		x := float32(r.Float64()*2 - 1)
		if i%4 == 0 {
			x *= 1e-5 // subnormal territory
		}
		got := fromHalf(toHalf(x))
		step := math.Max(math.Abs(float64(x))*math.Pow(2, -10), math.Pow(2, -24))
		if d := math.Abs(float64(got - x)); d > step/2 {
			t.Fatalf("%v -> %v: error %g, half step %g", x, got, d, step/2)
		}
	}
	for _, tt := range []struct {
		in   float32
		want uint16
	}{
		{0, 0}, {float32(math.Copysign(0, -1)), 0x8000}, {1, 0x3c00}, {-2, 0xc000},
		{65504, 0x7bff}, {65520, 0x7c00}, {1e9, 0x7c00}, {float32(math.Inf(-1)), 0xfc00},
		{1 + 1.0/2048, 0x3c00}, // a tie rounds to the even mantissa
		{1 + 3.0/2048, 0x3c02},
		{5.960464477539063e-8, 0x0001}, {2.9e-8, 0},
	} {
		if got := toHalf(tt.in); got != tt.want {
			t.Errorf("toHalf(%v) = %#04x, want %#04x", tt.in, got, tt.want)
		}
	}
}

// TestDecodeVector_Widths: int8 blobs, the float16 blobs and float32
// blobs of older stores all decode; other lengths are refused.
func TestDecodeVector_Widths(t *testing.T) {
	v := []float32{0.5, -0.25, 0.125}
	got := make([]float32, 3)
	if !decodeVector(got, encodeVector(nil, v)) || got[0] != 0.5 || math.Abs(float64(got[1]+0.25)) > 0.5/254 || math.Abs(float64(got[2]-0.125)) > 0.5/254 {
		t.Fatalf("int8: %v", got)
	}
	var f16, f32 []byte
	for _, x := range v {
		h, b := toHalf(x), math.Float32bits(x)
		f16 = append(f16, byte(h), byte(h>>8))
		f32 = append(f32, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
	}
	if !decodeVector(got, f16) || got[0] != 0.5 || got[1] != -0.25 || got[2] != 0.125 {
		t.Fatalf("float16: %v", got)
	}
	if !decodeVector(got, f32) || got[1] != -0.25 {
		t.Fatalf("float32: %v", got)
	}
	if decodeVector(got, f32[:5]) {
		t.Fatal("a 5-byte blob decoded")
	}
}

// TestEncodeVector_Int8: a stored vector is its int8 quantisation and
// scale, dim + 4 bytes made odd, so that no dimension makes it the length
// of a float16 or float32 blob (at 4 dimensions dim + 4 = 2 × dim); it
// decodes to what the index scans with, within half a step of v.
func TestEncodeVector_Int8(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, dim := range []int{1, 2, 3, 4, 5, 8, 384, 512} {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		b := encodeVector([]byte("prefix"), v)[len("prefix"):]
		if len(b)%2 != 1 || len(b) < dim+4 || len(b) > dim+5 {
			t.Fatalf("dim %d: %d bytes", dim, len(b))
		}
		if len(b) == 2*dim || len(b) == 4*dim {
			t.Fatalf("dim %d: the int8 length %d is ambiguous", dim, len(b))
		}
		row := make([]int8, dim)
		scale := quantizeRow(row, v)
		got := make([]float32, dim)
		if !decodeVector(got, b) {
			t.Fatalf("dim %d: did not decode", dim)
		}
		for i := range v {
			if got[i] != float32(row[i])*scale {
				t.Fatalf("dim %d [%d]: %v, the index holds %v", dim, i, got[i], float32(row[i])*scale)
			}
			if d := math.Abs(float64(got[i] - v[i])); d > float64(scale)/2*1.0001 {
				t.Fatalf("dim %d [%d]: %v for %v, more than half a step %v", dim, i, got[i], v[i], scale)
			}
		}
	}
	if b := encodeVector(nil, make([]float32, 4)); !decodeVector(make([]float32, 4), b) {
		t.Fatal("the zero vector did not decode")
	}
}

// TestVectors_StoredAsInt8: both write paths, embedding inline and the
// queue, store a vector as dim + 5 bytes (int8, scale, padding) for the
// even dimension of the test embedder, not 2 × dim of float16.
func TestVectors_StoredAsInt8(t *testing.T) {
	ctx := context.Background()
	for _, inline := range []bool{true, false} {
		db := openTemp(t, nil)
		e := &recalltest.WordEmbedder{}
		vs := NewVectorService(db, e, chunk.Splitter{})
		vs.Inline = inline
		mem := NewMemoryService(db)
		if _, err := mem.ImportMemories(ctx, []*recall.Memory{{Content: "the ferry leaves at nine"}, {Content: "the lighthouse is white"}}); err != nil {
			t.Fatal(err)
		}
		if err := vs.DrainQueue(ctx, time.Minute); err != nil {
			t.Fatal(err)
		}
		var n, bad int
		if err := db.read.QueryRow(`SELECT COUNT(*), COUNT(*) FILTER (WHERE length(vec) != dim + 5) FROM memory_vectors`).Scan(&n, &bad); err != nil || n != 2 || bad != 0 {
			t.Fatalf("inline %v: %d vectors, %d not dim + 5 bytes long, %v", inline, n, bad, err)
		}
		if hits, err := vs.SearchVectors(ctx, "when does the ferry leave", 1); err != nil || len(hits) != 1 {
			t.Fatalf("inline %v: search %v, %v", inline, hits, err)
		}
	}
}
