package sentence

import (
	"math"
	"testing"
)

func TestWeightFormsRoundTrip(t *testing.T) {
	in := []Tensor{
		{Name: "m", Shape: []int{3, 4}, Data: []float32{1, -2, 0.5, 0, 3, 0.25, -1, 8, 0, 0, 0, 0}},
		{Name: "b", Shape: []int{2}, Data: []float32{0.1, -7}},
	}
	for _, form := range []byte{FormFloat32, FormFloat16, FormInt8Row, FormInt8Col} {
		for i := range in {
			in[i].Form = form
		}
		got, err := DecodeWeights(EncodeWeights(in))
		if err != nil {
			t.Fatalf("form %d: %v", form, err)
		}
		for _, want := range in {
			g := got[want.Name]
			if len(g.Data) != len(want.Data) {
				t.Fatalf("form %d, %s: %d values, want %d", form, want.Name, len(g.Data), len(want.Data))
			}
			for i := range want.Data {
				// int8 keeps 1/254 of a row's (column's) largest value.
				if d := math.Abs(float64(g.Data[i] - want.Data[i])); d > 8.0/254+1e-6 {
					t.Errorf("form %d, %s[%d] = %g, want %g", form, want.Name, i, g.Data[i], want.Data[i])
				}
			}
		}
	}
}

func TestHalfRoundTrip(t *testing.T) {
	for _, f := range []float32{0, 1, -1, 0.5, 65504, 1e-5, -3.1415927, 6e-8, 1e-9} {
		got := fromHalf(toHalf(f))
		if d := math.Abs(float64(got - f)); d > math.Abs(float64(f))/1024+6e-8 {
			t.Errorf("fromHalf(toHalf(%g)) = %g", f, got)
		}
	}
	if got := fromHalf(toHalf(1e6)); got != 65504 {
		t.Errorf("toHalf(1e6) = %g, want the largest half 65504", got)
	}
}

func TestDecodeWeightsRejectsDamage(t *testing.T) {
	good := EncodeWeights([]Tensor{{Name: "m", Shape: []int{2, 2}, Data: []float32{1, 2, 3, 4}, Form: FormInt8Col}})
	for _, b := range [][]byte{nil, []byte("nonsense"), good[:len(good)-1], good[:14]} {
		if _, err := DecodeWeights(b); err == nil {
			t.Errorf("DecodeWeights(%q) succeeded, want an error", b)
		}
	}
}

func FuzzDecodeWeights(f *testing.F) {
	f.Add(EncodeWeights([]Tensor{{Name: "m", Shape: []int{2, 2}, Data: []float32{1, 2, 3, 4}, Form: FormInt8Row}}))
	f.Add([]byte(weightMagic + "\x01\x00\x00\x00\x01\x00m\x03\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = DecodeWeights(b) // must not panic or allocate without bound
	})
}
