package sqlite

import (
	"math"
	"math/rand/v2"
	"testing"
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

// TestDecodeVector_Widths: float16 blobs and the float32 blobs of older
// stores both decode; other lengths are refused.
func TestDecodeVector_Widths(t *testing.T) {
	v := []float32{0.5, -0.25, 0.125}
	got := make([]float32, 3)
	if !decodeVector(got, encodeVector(nil, v)) || got[0] != 0.5 || got[1] != -0.25 || got[2] != 0.125 {
		t.Fatalf("float16: %v", got)
	}
	var f32 []byte
	for _, x := range v {
		b := math.Float32bits(x)
		f32 = append(f32, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
	}
	if !decodeVector(got, f32) || got[1] != -0.25 {
		t.Fatalf("float32: %v", got)
	}
	if decodeVector(got, f32[:5]) {
		t.Fatal("a 5-byte blob decoded")
	}
}
