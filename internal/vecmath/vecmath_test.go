package vecmath

import (
	"math"
	"math/rand/v2"
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

func TestDot4x3MatchesDot(t *testing.T) {
	const n, wstride, xstride = 256, 264, 272
	w, x := make([]float32, 3*wstride+n), make([]float32, 2*xstride+n)
	for i := range w {
		w[i] = float32(i%9)*0.25 - 1
	}
	for i := range x {
		x[i] = float32(i%11) - 5
	}
	var out [12]float32
	if !Dot4x3(w, wstride, x, xstride, n, &out) {
		t.Skip("no FMA kernel on this machine")
	}
	for c := range 3 {
		for r := range 4 {
			want := recall.Dot(w[r*wstride:r*wstride+n], x[c*xstride:c*xstride+n])
			if got := out[c*4+r]; math.Abs(float64(got-want)) > 1e-2 {
				t.Errorf("row %d, token %d: %g, want %g", r, c, got, want)
			}
		}
	}
}

func TestAxpyMatchesPlainGo(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 64, 128, 131} {
		x, y, want := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(i%7)-3, float32(i%5)*0.5
			want[i] = y[i] + 0.75*x[i]
		}
		Axpy(0.75, x, y)
		for i := range y {
			if math.Abs(float64(y[i]-want[i])) > 1e-5 {
				t.Errorf("Axpy over %d: y[%d] = %g, want %g", n, i, y[i], want[i])
			}
		}
	}
}

// randomRows returns a query of dim floats and nrows int8 rows of dim,
// from a fixed seed.
func randomRows(dim, nrows int) ([]float32, []int8) {
	r := rand.New(rand.NewPCG(1, uint64(dim)))
	q, rows := make([]float32, dim), make([]int8, dim*nrows)
	for i := range q {
		q[i] = float32(r.NormFloat64())
	}
	for i := range rows {
		rows[i] = int8(r.IntN(255) - 127)
	}
	return q, rows
}

func TestDotI8RowsEqualsDotI8(t *testing.T) {
	for _, dim := range []int{0, 1, 31, 32, 33, 64, 384, 512, 1000} {
		for _, nrows := range []int{0, 1, 3, 17} {
			q, rows := randomRows(dim, nrows)
			out := make([]float32, nrows)
			DotI8Rows(q, rows, out)
			for i := range out {
				row := rows[i*dim : (i+1)*dim]
				if want := DotI8(q, row); out[i] != want {
					t.Errorf("dim %d, row %d of %d: %g, want %g exactly", dim, i, nrows, out[i], want)
				}
				if want := dotI8Go(q, row); math.Abs(float64(out[i]-want)) > 1e-2 {
					t.Errorf("dim %d, row %d of %d: %g, plain Go %g", dim, i, nrows, out[i], want)
				}
			}
			fallback := make([]float32, nrows)
			dotI8RowsGo(q, rows, fallback)
			for i := range fallback {
				if want := dotI8Go(q, rows[i*dim:(i+1)*dim]); fallback[i] != want {
					t.Errorf("fallback dim %d, row %d: %g, want %g", dim, i, fallback[i], want)
				}
			}
		}
	}
}

// The gathering kernel scores scattered rows (repeated, out of order,
// the last row included, so that its prefetch of rows four ahead reaches
// the end) exactly as DotI8 scores each, at dimensions that are and are
// not multiples of 32, for no rows and for fewer than four.
func TestDotI8GatherEqualsDotI8(t *testing.T) {
	for _, dim := range []int{0, 1, 31, 32, 33, 64, 384, 512, 1000} {
		q, rows := randomRows(dim, 40)
		for _, pick := range [][]int{nil, {39}, {5, 2, 39}, {0, 39, 7, 7, 13, 39, 1, 20, 38, 3}} {
			offs := make([]int, len(pick))
			for i, r := range pick {
				offs[i] = r * dim
			}
			out := make([]float32, len(pick))
			DotI8Gather(q, rows, offs, out)
			for i, r := range pick {
				if want := DotI8(q, rows[r*dim:(r+1)*dim]); out[i] != want {
					t.Errorf("dim %d, row %d (%d of %v): %g, want %g exactly", dim, r, i, pick, out[i], want)
				}
			}
			fallback := make([]float32, len(pick))
			dotI8GatherGo(q, rows, offs, fallback)
			for i, r := range pick {
				if want := dotI8Go(q, rows[r*dim:(r+1)*dim]); fallback[i] != want {
					t.Errorf("fallback dim %d, row %d: %g, want %g", dim, r, fallback[i], want)
				}
			}
		}
	}
}

// A row that does not fit in rows is refused before the kernel reads it.
func TestDotI8GatherChecksBounds(t *testing.T) {
	q, rows := randomRows(64, 3)
	defer func() {
		if recover() == nil {
			t.Fatal("a row past the end was scored")
		}
	}()
	DotI8Gather(q, rows, []int{0, 2*64 + 1}, make([]float32, 2))
}

const benchRows = 4096

func BenchmarkDotI8PerRow(b *testing.B) {
	q, rows := randomRows(512, benchRows)
	out := make([]float32, benchRows)
	for b.Loop() {
		for i := range out {
			out[i] = DotI8(q, rows[i*512:(i+1)*512])
		}
	}
}

func BenchmarkDotI8Rows(b *testing.B) {
	q, rows := randomRows(512, benchRows)
	out := make([]float32, benchRows)
	for b.Loop() {
		DotI8Rows(q, rows, out)
	}
}
