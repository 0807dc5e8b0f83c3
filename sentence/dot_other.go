//go:build !amd64

package sentence

func dot(a, b []float32) float32 { return dotGo(a, b) }

func dot4(w, x []float32, stride int, out *[4]float32) bool { return false }
