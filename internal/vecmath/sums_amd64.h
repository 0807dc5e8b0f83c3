// SUMS4 stores the horizontal sums of a, b, c and d side by side at dst,
// using Y12 and Y13.
#define SUMS4(a, b, c, d, dst) \
	VHADDPS b, a, Y12 \
	VHADDPS d, c, Y13 \
	VHADDPS Y13, Y12, Y12 \
	VEXTRACTF128 $1, Y12, X13 \
	VADDPS X13, X12, X12 \
	VMOVUPS X12, dst
