package sqlite

import (
	"encoding/binary"
	"math"
)

// Stored vectors are int8, one per component, with one float32 scale per
// vector (the value of one step): a little over a byte a dimension (517
// instead of 1,024 for the built-in embedder's float16), which was two
// fifths of the store at 100,000 memories. It is the quantisation the
// in-memory index scans with (quantizeRow), so a search ranks exactly as
// the scan does; on LoCoMo dev no headline figure is lower than with
// float16 (docs/performance.md). Vectors written by earlier versions, as
// float16 or float32, are read as they are, told apart by the blob's
// length: an int8 blob is dim + 4 bytes padded to an odd length, and the
// others are always even.

// encodeVector appends v in the stored form: its int8 quantisation, the
// scale as a little-endian float32, and a zero byte when that would leave
// the length even.
func encodeVector(dst []byte, v []float32) []byte {
	n := len(dst)
	dst = append(dst, make([]byte, len(v))...)
	scale := quantizeRow(dst[n:], v)
	dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(scale))
	if len(v)%2 == 0 {
		dst = append(dst, 0)
	}
	return dst
}

// quantizeRow writes the symmetric int8 quantisation of v into row (of
// len(v); bytes hold the int8 bits) and returns its scale: the largest
// magnitude maps to ±127.
func quantizeRow[T int8 | byte](row []T, v []float32) float32 {
	var peak float32
	for _, f := range v {
		peak = max(peak, float32(math.Abs(float64(f))))
	}
	scale := peak / 127
	if scale > 0 {
		for j, f := range v {
			row[j] = T(int8(math.Round(float64(f / scale))))
		}
	} else {
		clear(row)
	}
	return scale
}

// decodeVector reads a stored vector into dst, int8, float16 or float32 by
// the blob's length; it reports false for a blob of none of these lengths.
func decodeVector(dst []float32, b []byte) bool {
	switch len(b) {
	case len(dst) + 4 + (1 - len(dst)%2):
		scale := math.Float32frombits(binary.LittleEndian.Uint32(b[len(dst):]))
		for i := range dst {
			dst[i] = float32(int8(b[i])) * scale
		}
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
