package recall

import "math"

// Normalize scales v to unit length in place, so that a dot product of
// two vectors is their cosine similarity; a zero vector stays zero. Every
// Embedder returns normalised vectors.
func Normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}
