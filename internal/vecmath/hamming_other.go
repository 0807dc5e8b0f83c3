//go:build !amd64

package vecmath

// HasPopcnt512 is false: there are no kernels for this architecture.
const HasPopcnt512 = false

// Hamming8 sets out[i] to the number of bits in which q differs from the
// 512-bit code codes[8i:8i+8], for each i < len(out).
func Hamming8(q *[8]uint64, codes []uint64, out []int32) { hamming8Go(q, codes, out) }
