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
