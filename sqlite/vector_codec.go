package sqlite

import (
	"encoding/binary"
	"math"
)

// Stored vectors are little-endian IEEE 754 half-precision floats: half the
// bytes of float32 (768 instead of 1,536 for the built-in embedder), which
// is a quarter of a memory's share of the store and of what ingest writes.
// Vectors are L2-normalised, so every component lies in [-1, 1], where a
// half float keeps 11 significant bits: a rescored similarity moves by
// less than 0.001, far below the gaps that order search results. Vectors
// written as float32 by earlier versions are read as they are (the blob's
// length tells which).

// encodeVector appends v as little-endian float16.
func encodeVector(dst []byte, v []float32) []byte {
	for _, x := range v {
		dst = binary.LittleEndian.AppendUint16(dst, toHalf(x))
	}
	return dst
}

// decodeVector reads a stored vector into dst, float16 or float32 by the
// blob's length; it reports false for a blob of neither length.
func decodeVector(dst []float32, b []byte) bool {
	switch len(b) {
	case 2 * len(dst):
		for i := range dst {
			dst[i] = fromHalf(binary.LittleEndian.Uint16(b[i*2:]))
		}
	case 4 * len(dst):
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:]))
		}
	default:
		return false
	}
	return true
}

// toHalf rounds f to the nearest float16 (ties to even); beyond the range
// it gives ±Inf, below it ±0 or a subnormal.
func toHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff { // Inf or NaN
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 { // subnormal in float16, or too small
		if e < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint32(14 - e)
		return sign | uint16(roundShift(mant, shift))
	}
	m := roundShift(mant, 13)
	if m == 0x400 { // the mantissa rounded up into the next power of two
		m, e = 0, e+1
		if e >= 0x1f {
			return sign | 0x7c00
		}
	}
	return sign | uint16(e)<<10 | uint16(m)
}

// roundShift is x >> shift rounded to nearest, ties to even.
func roundShift(x, shift uint32) uint32 {
	q := x >> shift
	rem := x & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rem > half || (rem == half && q&1 == 1) {
		q++
	}
	return q
}

// fromHalf widens a float16 exactly.
func fromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: normalise
		e := uint32(127 - 15 + 1)
		for mant&0x400 == 0 {
			mant <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (mant&0x3ff)<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}
