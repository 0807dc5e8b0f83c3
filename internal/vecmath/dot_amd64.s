#include "textflag.h"
#include "kernels_amd64.h"

// SUM4 adds the accumulators Y0-Y3 into the low float of X0, using X1.
#define SUM4 \
	VADDPS Y1, Y0, Y0 \
	VADDPS Y3, Y2, Y2 \
	VADDPS Y2, Y0, Y0 \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPS X1, X0, X0 \
	VHADDPS X0, X0, X0 \
	VHADDPS X0, X0, X0

// ZERO4 clears the accumulators Y0-Y3.
#define ZERO4 \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y2, Y2, Y2 \
	VXORPS Y3, Y3, Y3

// I8BLOCK widens 32 int8 at row to float32 and adds their products with
// the 32 floats at q into the accumulators Y0-Y3, eight lanes each, using
// Y4-Y7. dotI8FMA and dotI8RowsFMA share it (and SUM4), so that a row's
// score is the same bit for bit whichever of them made it.
#define I8BLOCK(q, row) \
	VPMOVSXBD (row), Y4 \
	VPMOVSXBD 8(row), Y5 \
	VPMOVSXBD 16(row), Y6 \
	VPMOVSXBD 24(row), Y7 \
	VCVTDQ2PS Y4, Y4 \
	VCVTDQ2PS Y5, Y5 \
	VCVTDQ2PS Y6, Y6 \
	VCVTDQ2PS Y7, Y7 \
	VFMADD231PS (q), Y4, Y0 \
	VFMADD231PS 32(q), Y5, Y1 \
	VFMADD231PS 64(q), Y6, Y2 \
	VFMADD231PS 96(q), Y7, Y3

// func dotFMA(a, b *float32, n int) float32
// n is a multiple of 32; four 8-wide accumulators hide the FMA latency.
TEXT ·dotFMA(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	ZERO4

loop:
	CMPQ CX, $32
	JL   done
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  loop

done:
	SUM4
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotI8FMA(q *float32, row *int8, n int) float32
// n is a multiple of 32: the int8 row is widened to float32 eight at a
// time and multiplied into four accumulators.
TEXT ·dotI8FMA(SB), NOSPLIT, $0-28
	MOVQ q+0(FP), SI
	MOVQ row+8(FP), DI
	MOVQ n+16(FP), CX
	ZERO4

loop:
	CMPQ CX, $32
	JL   done
	I8BLOCK(SI, DI)
	ADDQ $128, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  loop

done:
	SUM4
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dot4x3FMA(w *float32, wstride int, x *float32, xstride, n int, out *[12]float32)
// Y(3r+c) accumulates w row r · x row c, eight lanes at a time; the three
// x rows stay in registers while each w row is loaded once.
TEXT ·dot4x3FMA(SB), NOSPLIT, $0-48
	WROWS4
	MOVQ x+16(FP), DI
	FLOATS(xstride+24(FP), BX)
	FLOATS(n+32(FP), CX)
	MOVQ out+40(FP), R8
	LEAQ (DI)(BX*1), R12
	LEAQ (R12)(BX*1), R13
	XORQ AX, AX
	ZERO4
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

loop43:
	VMOVUPS (DI)(AX*1), Y12
	VMOVUPS (R12)(AX*1), Y13
	VMOVUPS (R13)(AX*1), Y14
	VMOVUPS (SI)(AX*1), Y15
	VFMADD231PS Y12, Y15, Y0
	VFMADD231PS Y13, Y15, Y1
	VFMADD231PS Y14, Y15, Y2
	VMOVUPS (R9)(AX*1), Y15
	VFMADD231PS Y12, Y15, Y3
	VFMADD231PS Y13, Y15, Y4
	VFMADD231PS Y14, Y15, Y5
	VMOVUPS (R10)(AX*1), Y15
	VFMADD231PS Y12, Y15, Y6
	VFMADD231PS Y13, Y15, Y7
	VFMADD231PS Y14, Y15, Y8
	VMOVUPS (R11)(AX*1), Y15
	VFMADD231PS Y12, Y15, Y9
	VFMADD231PS Y13, Y15, Y10
	VFMADD231PS Y14, Y15, Y11
	ADDQ $32, AX
	CMPQ AX, CX
	JL   loop43

	// Token c's four sums are in Y(c), Y(3+c), Y(6+c), Y(9+c): two rounds
	// of horizontal adds and a fold of the high half give them in order.
	SUMS4(Y0, Y3, Y6, Y9, 0(R8))
	SUMS4(Y1, Y4, Y7, Y10, 16(R8))
	SUMS4(Y2, Y5, Y8, Y11, 32(R8))
	VZEROUPPER
	RET

// func axpyFMA(a float32, x, y *float32, n int)
// y[:n] += a·x[:n], n a multiple of 8.
TEXT ·axpyFMA(SB), NOSPLIT, $0-32
	VBROADCASTSS a+0(FP), Y0
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	FLOATS(n+24(FP), CX)
	XORQ AX, AX

axpyloop:
	VMOVUPS (DI)(AX*1), Y1
	VFMADD231PS (SI)(AX*1), Y0, Y1
	VMOVUPS Y1, (DI)(AX*1)
	ADDQ $32, AX
	CMPQ AX, CX
	JL   axpyloop
	VZEROUPPER
	RET

// func dotI8RowsFMA(q *float32, rows *int8, stride, n, nrows int, out *float32)
// out[i] is the inner product of q with the int8 row at rows+i·stride,
// over n components (a multiple of 32, more than 0): each row's sum is
// made exactly as dotI8FMA makes it (the same four accumulators, the same
// order of additions), so a score does not depend on how it was called.
TEXT ·dotI8RowsFMA(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), SI
	MOVQ rows+8(FP), DI
	MOVQ stride+16(FP), DX
	MOVQ n+24(FP), BX
	MOVQ nrows+32(FP), R8
	MOVQ out+40(FP), R9

rows:
	TESTQ R8, R8
	JZ    rowsdone
	MOVQ  SI, R10
	MOVQ  DI, R11
	MOVQ  BX, CX
	ZERO4

rowloop:
	I8BLOCK(R10, R11)
	ADDQ $128, R10
	ADDQ $32, R11
	SUBQ $32, CX
	JNZ  rowloop

	SUM4
	MOVSS X0, (R9)
	ADDQ $4, R9
	ADDQ DX, DI
	DECQ R8
	JMP  rows

rowsdone:
	VZEROUPPER
	RET

// func dotI8GatherFMA(q *float32, rows *int8, offs *int, rowBytes, n, nrows int, out *float32)
// out[i] is the inner product of q with the int8 row at rows+offs[i], over
// n components (a multiple of 32, more than 0), made exactly as dotI8FMA
// makes it. The rows are scattered (the best of a prefilter): while a row
// is scored, the rowBytes of the row four ahead are prefetched, so that
// its cache misses overlap the work instead of following it.
TEXT ·dotI8GatherFMA(SB), NOSPLIT, $0-56
	MOVQ q+0(FP), SI
	MOVQ rows+8(FP), DI
	MOVQ offs+16(FP), R12
	MOVQ rowBytes+24(FP), DX
	MOVQ n+32(FP), BX
	MOVQ nrows+40(FP), R8
	MOVQ out+48(FP), R9

grows:
	TESTQ R8, R8
	JZ    gdone
	CMPQ  R8, $4
	JLE   gscore
	MOVQ  32(R12), AX
	ADDQ  DI, AX
	XORQ  CX, CX

gprefetch:
	PREFETCHT0 (AX)(CX*1)
	ADDQ $64, CX
	CMPQ CX, DX
	JL   gprefetch

gscore:
	MOVQ (R12), AX
	LEAQ (DI)(AX*1), R11
	MOVQ SI, R10
	MOVQ BX, CX
	ZERO4

growloop:
	I8BLOCK(R10, R11)
	ADDQ $128, R10
	ADDQ $32, R11
	SUBQ $32, CX
	JNZ  growloop

	SUM4
	MOVSS X0, (R9)
	ADDQ  $4, R9
	ADDQ  $8, R12
	DECQ  R8
	JMP   grows

gdone:
	VZEROUPPER
	RET
