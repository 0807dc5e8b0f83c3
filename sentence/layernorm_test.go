package sentence

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Rows normalised side by side (four at a time, and the rest) come out
// bit for bit as each row normalised alone.
func TestLayerNormRowsMatchAlone(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 96
	scale, bias := make([]float32, n), make([]float32, n)
	for i := range scale {
		scale[i], bias[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
	}
	for rows := 1; rows <= 9; rows++ {
		x := make([]float32, rows*n)
		for i := range x {
			x[i] = float32(r.NormFloat64()*3 + 1)
		}
		got := make([]float32, len(x))
		layerNorm(got, x, n, scale, bias)
		for row := range rows {
			alone := make([]float32, n)
			layerNorm(alone, x[row*n:(row+1)*n], n, scale, bias)
			for i, v := range alone {
				if math.Float32bits(got[row*n+i]) != math.Float32bits(v) {
					t.Fatalf("%d rows: row %d [%d] = %v, alone %v", rows, row, i, got[row*n+i], v)
				}
			}
		}
	}
}
