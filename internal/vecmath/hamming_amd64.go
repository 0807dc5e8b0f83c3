package vecmath

import "golang.org/x/sys/cpu"

// HasPopcnt512 reports whether Hamming8 runs on the AVX-512 kernel: a
// row's eight words differ from the query's in one instruction
// (VPOPCNTQ), where the Go loop makes eight popcounts and their sum. The
// kernel clears an XMM register with VPXORQ, whose EVEX form on XMM
// needs AVX512VL: a CPU (or a virtual machine's CPUID) with F and
// VPOPCNTDQ but without VL would fault on it.
var HasPopcnt512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ && cpu.X86.HasAVX512VL

//go:noescape
func hamming8AVX512(q *[8]uint64, codes *uint64, n int, out *int32)

// Hamming8 sets out[i] to the number of bits in which q differs from the
// 512-bit code codes[8i:8i+8], for each i < len(out): the distance of a
// query's signs to a row's sign code, for a block of rows in one call.
func Hamming8(q *[8]uint64, codes []uint64, out []int32) {
	codes = codes[:len(out)*8]
	if !HasPopcnt512 || len(out) == 0 {
		hamming8Go(q, codes, out)
		return
	}
	hamming8AVX512(q, &codes[0], len(out), &out[0])
}
