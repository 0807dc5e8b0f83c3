#include "textflag.h"

// func hamming8AVX512(q *[8]uint64, codes *uint64, n int, out *int32)
//
// For each of n rows of 64 bytes: XOR with the query (Z0), count the
// bits of each word (VPOPCNTQ), narrow the eight counts (at most 64) to
// bytes (VPMOVQB) and add them (VPSADBW against zero). Two rows a turn.
TEXT ·hamming8AVX512(SB), NOSPLIT, $0-32
	MOVQ q+0(FP), AX
	MOVQ codes+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ out+24(FP), DI
	VMOVDQU64 (AX), Z0
	VPXORQ X7, X7, X7
	CMPQ CX, $2
	JB   one

two:
	VPXORQ   (SI), Z0, Z1
	VPXORQ   64(SI), Z0, Z2
	VPOPCNTQ Z1, Z1
	VPOPCNTQ Z2, Z2
	VPMOVQB  Z1, X1
	VPMOVQB  Z2, X2
	VPSADBW  X7, X1, X1
	VPSADBW  X7, X2, X2
	VMOVD    X1, (DI)
	VMOVD    X2, 4(DI)
	ADDQ     $128, SI
	ADDQ     $8, DI
	SUBQ     $2, CX
	CMPQ     CX, $2
	JAE      two

one:
	TESTQ    CX, CX
	JZ       done
	VPXORQ   (SI), Z0, Z1
	VPOPCNTQ Z1, Z1
	VPMOVQB  Z1, X1
	VPSADBW  X7, X1, X1
	VMOVD    X1, (DI)

done:
	VZEROUPPER
	RET
