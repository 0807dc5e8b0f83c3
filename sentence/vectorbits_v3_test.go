//go:build amd64.v3

package sentence

// With GOAMD64=v3 or above the compiler fuses the Go code's multiply-adds
// (layer norms, attention) into FMA instructions: other bits, other digests.
const vectorBitsFile = "testdata/vector_bits_v3.txt"
