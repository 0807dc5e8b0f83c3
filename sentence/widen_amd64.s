#include "textflag.h"

// func widenAVX2(dst *float32, q *byte, n int, s float32)
// dst[:n] = float32(int8(q[:n]))·s, n a multiple of 16: sign-extend eight
// bytes to int32, convert (exact for int8), multiply once.
TEXT ·widenAVX2(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ q+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS s+24(FP), Y0
	XORQ AX, AX

widenloop:
	VPMOVSXBD (SI)(AX*1), Y1
	VPMOVSXBD 8(SI)(AX*1), Y2
	VCVTDQ2PS Y1, Y1
	VCVTDQ2PS Y2, Y2
	VMULPS Y0, Y1, Y1
	VMULPS Y0, Y2, Y2
	VMOVUPS Y1, (DI)(AX*4)
	VMOVUPS Y2, 32(DI)(AX*4)
	ADDQ $16, AX
	CMPQ AX, CX
	JL   widenloop
	VZEROUPPER
	RET

// func prefetch(p *byte, n int)
// Asks for the n bytes at p (n > 0) to be brought into the cache, a line
// at a time, without waiting for them.
TEXT ·prefetch(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	XORQ AX, AX

prefetchloop:
	PREFETCHT0 (SI)(AX*1)
	ADDQ $64, AX
	CMPQ AX, CX
	JL   prefetchloop
	RET

// func widenRowsAVX512(dst *float32, q *byte, n, rows int, scales *float32)
// widenAVX2 sixteen values to a register (the same conversion and the
// same single rounding of the product, so the same bits), over rows
// consecutive rows of n values (a multiple of 16, more than 0), row r
// with scales[r], in one call.
TEXT ·widenRowsAVX512(SB), NOSPLIT, $0-40
	MOVQ n+16(FP), CX
	MOVQ CX, R9
	SHLQ $2, R9 // a row of dst, in bytes
	MOVQ dst+0(FP), DI
	MOVQ q+8(FP), SI
	MOVQ rows+24(FP), DX
	MOVQ scales+32(FP), BX

rowsloop:
	VBROADCASTSS (BX), Z0
	XORQ R8, R8

rowloop:
	VPMOVSXBD (SI)(R8*1), Z1
	VCVTDQ2PS Z1, Z1
	VMULPS Z0, Z1, Z1
	VMOVUPS Z1, (DI)(R8*4)
	ADDQ $16, R8
	CMPQ R8, CX
	JL   rowloop
	ADDQ CX, SI
	ADDQ R9, DI
	ADDQ $4, BX
	DECQ DX
	JNZ  rowsloop
	VZEROUPPER
	RET
