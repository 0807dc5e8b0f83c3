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
