package vecmath

import "math/bits"

// hamming8Go is Hamming8 without the vector kernel.
func hamming8Go(q *[8]uint64, codes []uint64, out []int32) {
	codes = codes[:len(out)*8]
	for i := range out {
		c := (*[8]uint64)(codes[i*8:])
		out[i] = int32(bits.OnesCount64(q[0]^c[0]) + bits.OnesCount64(q[1]^c[1]) +
			bits.OnesCount64(q[2]^c[2]) + bits.OnesCount64(q[3]^c[3]) +
			bits.OnesCount64(q[4]^c[4]) + bits.OnesCount64(q[5]^c[5]) +
			bits.OnesCount64(q[6]^c[6]) + bits.OnesCount64(q[7]^c[7]))
	}
}
