//go:build !amd64.v3

package sentence

// The digests of a build whose Go code rounds every product (GOAMD64 v1,
// v2); vectorbits_v3_test.go has those of the fused one.
const vectorBitsFile = "testdata/vector_bits.txt"
