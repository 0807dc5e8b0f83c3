#include "textflag.h"
#include "kernels_amd64.h"

// BCAST4 broadcasts the eight floats at AX of each of w's four rows to
// both halves of Z16-Z19.
#define BCAST4 \
	VBROADCASTF64X4 (SI)(AX*1), Z16 \
	VBROADCASTF64X4 (R9)(AX*1), Z17 \
	VBROADCASTF64X4 (R10)(AX*1), Z18 \
	VBROADCASTF64X4 (R11)(AX*1), Z19

// PAIRS3 adds w row times the three pairs in Z12-Z14 into a, b and c.
#define PAIRS3(w, a, b, c) \
	VFMADD231PS Z12, w, a \
	VFMADD231PS Z13, w, b \
	VFMADD231PS Z14, w, c

// PAIRS2 adds w row times the two pairs in Z8 and Z9 into a and b.
#define PAIRS2(w, a, b) \
	VFMADD231PS Z8, w, a \
	VFMADD231PS Z9, w, b

// The AVX-512 kernels keep two 8-lane sums in each 16-lane register, one
// per half, and add into every lane what the 8-lane kernel of
// dot_amd64.s adds into it, in the same order: the halves, taken apart
// at the end and summed as SUMS4 sums, give the 8-lane kernel's results
// bit for bit, at twice the products per instruction.

// func dot4x6Z(w *float32, wstride int, xp *float32, n int, y *float32, ystride int, b *float32)
// Z(3r+p) accumulates w row r times pair p of tokens (token 2p in the low
// half, 2p+1 in the high half); the pairs are packed eight floats of one
// token, then eight of the other (PairUp), so that one load brings both,
// and each eight floats of a w row are loaded once into both halves.
// Token c's four sums plus b[0:4] go to y+c·ystride.
TEXT ·dot4x6Z(SB), NOSPLIT, $0-56
	WROWS4
	MOVQ xp+16(FP), DI
	FLOATS(n+24(FP), CX)
	LEAQ (DI)(CX*2), R12
	LEAQ (R12)(CX*2), R13
	XORQ AX, AX
	ZEROZ4(Z0, Z1, Z2, Z3)
	ZEROZ4(Z4, Z5, Z6, Z7)
	ZEROZ4(Z8, Z9, Z10, Z11)

loop46:
	VMOVUPS (DI)(AX*2), Z12
	VMOVUPS (R12)(AX*2), Z13
	VMOVUPS (R13)(AX*2), Z14
	BCAST4
	PAIRS3(Z16, Z0, Z1, Z2)
	PAIRS3(Z17, Z3, Z4, Z5)
	PAIRS3(Z18, Z6, Z7, Z8)
	PAIRS3(Z19, Z9, Z10, Z11)
	ADDQ $32, AX
	CMPQ AX, CX
	JL   loop46

	// Tokens 0, 2 and 4 go to R8, R12 and R13; 1, 3 and 5 a row further.
	MOVQ y+32(FP), R8
	FLOATS(ystride+40(FP), DX)
	LEAQ (R8)(DX*2), R12
	LEAQ (R12)(DX*2), R13
	MOVQ b+48(FP), BX
	VMOVUPS (BX), X15

	// The even tokens, from the low halves: token 2p's four sums are in
	// Y(p), Y(3+p), Y(6+p), Y(9+p), summed as dot4x3FMA sums them.
	SUMS4B(Y0, Y3, Y6, Y9, (R8))
	SUMS4B(Y1, Y4, Y7, Y10, (R12))
	SUMS4B(Y2, Y5, Y8, Y11, (R13))
	// The odd tokens, from the high halves brought down in place.
	LOWER4(Z0, Y0, Z1, Y1, Z2, Y2, Z3, Y3)
	LOWER4(Z4, Y4, Z5, Y5, Z6, Y6, Z7, Y7)
	LOWER4(Z8, Y8, Z9, Y9, Z10, Y10, Z11, Y11)
	SUMS4B(Y0, Y3, Y6, Y9, (R8)(DX*1))
	SUMS4B(Y1, Y4, Y7, Y10, (R12)(DX*1))
	SUMS4B(Y2, Y5, Y8, Y11, (R13)(DX*1))
	VZEROUPPER
	RET

// func dot4x4Z(w *float32, wstride int, xp *float32, n int, out *[16]float32)
// dot4x6Z for two pairs of tokens: Z(2r+p) accumulates w row r times
// pair p.
TEXT ·dot4x4Z(SB), NOSPLIT, $0-40
	WROWS4
	MOVQ xp+16(FP), DI
	FLOATS(n+24(FP), CX)
	MOVQ out+32(FP), R8
	LEAQ (DI)(CX*2), R12
	XORQ AX, AX
	ZEROZ4(Z0, Z1, Z2, Z3)
	ZEROZ4(Z4, Z5, Z6, Z7)

loop44:
	VMOVUPS (DI)(AX*2), Z8
	VMOVUPS (R12)(AX*2), Z9
	BCAST4
	PAIRS2(Z16, Z0, Z1)
	PAIRS2(Z17, Z2, Z3)
	PAIRS2(Z18, Z4, Z5)
	PAIRS2(Z19, Z6, Z7)
	ADDQ $32, AX
	CMPQ AX, CX
	JL   loop44

	SUMS4(Y0, Y2, Y4, Y6, 0(R8))
	SUMS4(Y1, Y3, Y5, Y7, 32(R8))
	LOWER4(Z0, Y0, Z1, Y1, Z2, Y2, Z3, Y3)
	LOWER4(Z4, Y4, Z5, Y5, Z6, Y6, Z7, Y7)
	SUMS4(Y0, Y2, Y4, Y6, 16(R8))
	SUMS4(Y1, Y3, Y5, Y7, 48(R8))
	VZEROUPPER
	RET

// ROWB adds w row (two 16-lane loads at row+AX) times the 32 floats of a
// token in xa and xb into the accumulators lo and hi: the four 8-lane
// sums of dotFMA, two to a register.
#define ROWB(row, xa, xb, lo, hi) \
	VFMADD231PS (row)(AX*1), xa, lo \
	VFMADD231PS 64(row)(AX*1), xb, hi

// SUMB reduces the accumulators lo (dotFMA's first two, one to a half)
// and hi (the third and fourth) of one sum as SUM4 does, and stores it at
// dst: the halves are added by swapping them (the low lanes then hold
// first + second, and third + fourth), then the two, then SUM4's last
// steps. It uses Z20 and X1 (whose register must be free).
#define SUMB(lo, hi, ylo, xlo, dst) \
	VSHUFF64X2 $0x4e, lo, lo, Z20 \
	VADDPS Z20, lo, lo \
	VSHUFF64X2 $0x4e, hi, hi, Z20 \
	VADDPS Z20, hi, hi \
	VADDPS hi, lo, lo \
	VEXTRACTF128 $1, ylo, X1 \
	VADDPS X1, xlo, xlo \
	VHADDPS xlo, xlo, xlo \
	VHADDPS xlo, xlo, xlo \
	VMOVSS xlo, dst

// TOKENB loads 32 floats of a token at x+AX into za and zb.
#define TOKENB(x, za, zb) \
	VMOVUPS (x)(AX*1), za \
	VMOVUPS 64(x)(AX*1), zb

// NEXTB steps AX to the next 32 floats and goes back to loop while
// there are more.
#define NEXTB(loop) \
	ADDQ $128, AX \
	CMPQ AX, CX \
	JL   loop

// func dot4x2B(w *float32, wstride int, x0, x1 *float32, n int, out *[8]float32)
// out[4c+r] is dotFMA's sum (four 8-lane accumulators over blocks of 32,
// reduced as SUM4 reduces them) of row r of w and token c, for one or two
// tokens (x1 nil for one): Z(4r+2c) accumulates its first two
// accumulators, Z(4r+2c+1) the other two. n is a multiple of 32.
TEXT ·dot4x2B(SB), NOSPLIT, $0-48
	WROWS4
	MOVQ x0+16(FP), DI
	MOVQ x1+24(FP), R12
	FLOATS(n+32(FP), CX)
	MOVQ out+40(FP), R8
	XORQ AX, AX
	ZEROZ4(Z0, Z1, Z2, Z3)
	ZEROZ4(Z4, Z5, Z6, Z7)
	ZEROZ4(Z8, Z9, Z10, Z11)
	ZEROZ4(Z12, Z13, Z14, Z15)
	TESTQ R12, R12
	JZ    loopB1

loopB2:
	TOKENB(DI, Z16, Z17)
	TOKENB(R12, Z18, Z19)
	ROWB(SI, Z16, Z17, Z0, Z1)
	ROWB(SI, Z18, Z19, Z2, Z3)
	ROWB(R9, Z16, Z17, Z4, Z5)
	ROWB(R9, Z18, Z19, Z6, Z7)
	ROWB(R10, Z16, Z17, Z8, Z9)
	ROWB(R10, Z18, Z19, Z10, Z11)
	ROWB(R11, Z16, Z17, Z12, Z13)
	ROWB(R11, Z18, Z19, Z14, Z15)
	NEXTB(loopB2)
	JMP  storeB

loopB1:
	TOKENB(DI, Z16, Z17)
	ROWB(SI, Z16, Z17, Z0, Z1)
	ROWB(R9, Z16, Z17, Z4, Z5)
	ROWB(R10, Z16, Z17, Z8, Z9)
	ROWB(R11, Z16, Z17, Z12, Z13)
	NEXTB(loopB1)

storeB:
	// The first token's sums; the reduction of row 0's frees X1.
	SUMB(Z0, Z1, Y0, X0, 0(R8))
	SUMB(Z4, Z5, Y4, X4, 4(R8))
	SUMB(Z8, Z9, Y8, X8, 8(R8))
	SUMB(Z12, Z13, Y12, X12, 12(R8))
	TESTQ R12, R12
	JZ    doneB
	SUMB(Z2, Z3, Y2, X2, 16(R8))
	SUMB(Z6, Z7, Y6, X6, 20(R8))
	SUMB(Z10, Z11, Y10, X10, 24(R8))
	SUMB(Z14, Z15, Y14, X14, 28(R8))

doneB:
	VZEROUPPER
	RET
