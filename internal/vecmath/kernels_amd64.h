// HSUMS4 leaves the horizontal sums of a, b, c and d side by side in X12,
// using Y12 and Y13.
#define HSUMS4(a, b, c, d) \
	VHADDPS b, a, Y12 \
	VHADDPS d, c, Y13 \
	VHADDPS Y13, Y12, Y12 \
	VEXTRACTF128 $1, Y12, X13 \
	VADDPS X13, X12, X12

// SUMS4 stores the horizontal sums of a, b, c and d side by side at dst,
// using Y12 and Y13.
#define SUMS4(a, b, c, d, dst) \
	HSUMS4(a, b, c, d) \
	VMOVUPS X12, dst

// SUMS4B stores the horizontal sums of a, b, c and d plus the four floats
// in X15 (a bias) side by side at dst, using Y12 and Y13.
#define SUMS4B(a, b, c, d, dst) \
	HSUMS4(a, b, c, d) \
	VADDPS X15, X12, X12 \
	VMOVUPS X12, dst

// WROWS4 points SI, R9, R10 and R11 at the four rows of w, from the
// arguments w (first) and wstride (in floats), leaving the stride in
// bytes in DX.
#define WROWS4 \
	MOVQ w+0(FP), SI \
	MOVQ wstride+8(FP), DX \
	SHLQ $2, DX \
	LEAQ (SI)(DX*1), R9 \
	LEAQ (R9)(DX*1), R10 \
	LEAQ (R10)(DX*1), R11

// ZEROZ4 clears four 16-lane registers.
#define ZEROZ4(a, b, c, d) \
	VPXORD a, a, a \
	VPXORD b, b, b \
	VPXORD c, c, c \
	VPXORD d, d, d

// LOWER4 brings the high halves of four 16-lane registers down into their
// low halves (za's into ya, the 8-lane register of the same number, …).
#define LOWER4(za, ya, zb, yb, zc, yc, zd, yd) \
	VEXTRACTF64X4 $1, za, ya \
	VEXTRACTF64X4 $1, zb, yb \
	VEXTRACTF64X4 $1, zc, yc \
	VEXTRACTF64X4 $1, zd, yd

// FLOATS loads the argument arg, a count of floats, into reg as bytes.
#define FLOATS(arg, reg) \
	MOVQ arg, reg \
	SHLQ $2, reg
