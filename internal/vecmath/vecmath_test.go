package vecmath

import (
	"math"
	"testing"

	"github.com/recall-mem/recall"
)

func TestDotMatchesPlainGo(t *testing.T) {
	for _, n := range []int{0, 1, 31, 32, 33, 64, 100, 512, 1536} {
		a, b := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i], b[i] = float32(i%7)-3, float32(i%5)*0.5-1
		}
		if got, want := Dot(a, b), recall.Dot(a, b); math.Abs(float64(got-want)) > 1e-3 {
			t.Errorf("Dot over %d = %g, want %g", n, got, want)
		}
	}
}

func TestDot4MatchesDot(t *testing.T) {
	const n, stride = 512, 520
	w, x := make([]float32, n), make([]float32, 4*stride)
	for i := range w {
		w[i] = float32(i%9)*0.25 - 1
	}
	for i := range x {
		x[i] = float32(i%11) - 5
	}
	var out [4]float32
	if !Dot4(w, x, stride, &out) {
		t.Skip("no FMA kernel on this machine")
	}
	for r := range 4 {
		if want := recall.Dot(w, x[r*stride:r*stride+n]); math.Abs(float64(out[r]-want)) > 1e-2 {
			t.Errorf("row %d: %g, want %g", r, out[r], want)
		}
	}
}

func TestDotI8MatchesPlainGo(t *testing.T) {
	for _, n := range []int{0, 1, 31, 32, 33, 384, 512, 1000} {
		q, row := make([]float32, n), make([]int8, n)
		for i := range q {
			q[i], row[i] = float32(i%7)*0.5-1.5, int8(i%255-127)
		}
		if got, want := DotI8(q, row), dotI8Go(q, row); math.Abs(float64(got-want)) > 1e-2 {
			t.Errorf("DotI8 over %d = %g, want %g", n, got, want)
		}
	}
}
