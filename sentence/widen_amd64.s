#include "textflag.h"

// WIDENARGS loads widen's arguments: dst in DI, q in SI, n in CX, the
// scale broadcast to every lane of scale; AX (the offset) is zero.
#define WIDENARGS(scale) \
	MOVQ dst+0(FP), DI \
	MOVQ q+8(FP), SI \
	MOVQ n+16(FP), CX \
	VBROADCASTSS s+24(FP), scale \
	XORQ AX, AX

// func widenAVX2(dst *float32, q *byte, n int, s float32)
// dst[:n] = float32(int8(q[:n]))·s, n a multiple of 16: sign-extend eight
// bytes to int32, convert (exact for int8), multiply once.
TEXT ·widenAVX2(SB), NOSPLIT, $0-28
	WIDENARGS(Y0)

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

// func widenAVX512(dst *float32, q *byte, n int, s float32)
// widenAVX2 sixteen values to a register: the same conversion and the
// same single rounding of the product, so the same bits.
TEXT ·widenAVX512(SB), NOSPLIT, $0-28
	WIDENARGS(Z0)

widen512loop:
	VPMOVSXBD (SI)(AX*1), Z1
	VCVTDQ2PS Z1, Z1
	VMULPS Z0, Z1, Z1
	VMOVUPS Z1, (DI)(AX*4)
	ADDQ $16, AX
	CMPQ AX, CX
	JL   widen512loop
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
