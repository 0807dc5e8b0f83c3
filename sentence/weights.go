package sentence

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The weight file is a flat list of named tensors, little-endian:
//
//	magic "USELITE1"
//	u32 count
//	count × { u16 nameLen, name, u8 form, u8 rank, rank × u32 dim, data }
//
// form 0 is float32; form 1 is float16; form 2 is int8 with one float32
// scale per row (the last dimension is the row): scales first, then the
// bytes; form 3 is int8 with one float32 scale per column (per output of
// a layer). The converter (internal/convertuse) writes it; the encoder
// decodes only its float32 tensors and reads the int8 ones in place: the
// embedding table, of which a query touches a few of its 8,002 rows, and
// the layers, whose rows a query widens to float32 as it reaches them.
const weightMagic = "USELITE1"

// Weight forms.
const (
	FormFloat32 = 0
	FormFloat16 = 1
	FormInt8Row = 2
	FormInt8Col = 3
)

// Tensor is one named weight, decoded to float32, or, for a table the
// encoder reads a few rows of at a time, kept as int8 in the file's bytes
// (Data nil, q and scales set, Form telling which way scales apply).
type Tensor struct {
	Name  string
	Shape []int
	Data  []float32
	Form  byte // how EncodeWeights stores it

	q      []byte    // int8 values in place, when not decoded
	scales []float32 // their scales, when not decoded
}

// Rows is the product of every dimension but the last.
func (t Tensor) Rows() int {
	n := 1
	for _, d := range t.Shape[:len(t.Shape)-1] {
		n *= d
	}
	return n
}

// Cols is the last dimension.
func (t Tensor) Cols() int { return t.Shape[len(t.Shape)-1] }

// EncodeWeights writes each tensor in its Form; one-dimensional tensors
// (biases, norms) always stay float32: they are small and quantising
// them costs accuracy for no size.
func EncodeWeights(tensors []Tensor) []byte {
	out := []byte(weightMagic)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(tensors)))
	for _, t := range tensors {
		f := t.Form
		if len(t.Shape) < 2 {
			f = FormFloat32
		}
		out = binary.LittleEndian.AppendUint16(out, uint16(len(t.Name)))
		out = append(out, t.Name...)
		out = append(out, f, byte(len(t.Shape)))
		for _, d := range t.Shape {
			out = binary.LittleEndian.AppendUint32(out, uint32(d))
		}
		switch f {
		case FormFloat32:
			for _, x := range t.Data {
				out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
			}
		case FormFloat16:
			for _, x := range t.Data {
				out = binary.LittleEndian.AppendUint16(out, toHalf(x))
			}
		case FormInt8Row, FormInt8Col:
			scales := int8Scales(t, f)
			for _, s := range scales {
				out = binary.LittleEndian.AppendUint32(out, math.Float32bits(s))
			}
			for i, x := range t.Data {
				s := scales[scaleIndex(i, t.Cols(), f)]
				q := 0.0
				if s > 0 {
					q = math.Round(float64(x / s))
				}
				out = append(out, byte(int8(q)))
			}
		}
	}
	return out
}

// DecodeWeights reads a weight file into float32 tensors by name.
func DecodeWeights(b []byte) (map[string]Tensor, error) {
	return decodeWeights(b, nil, nil, 1)
}

// decodeWeights reads a weight file; the int8 tensors inPlace accepts
// (nil: none) are not decoded but point into b, so that a large table costs nothing until
// its rows are read. b must then stay unchanged while they are in use
// (the embedded file is read-only). Decoded tensors take their memory
// from alloc, or from the heap when it is nil, and are dequantised on
// workers goroutines once the file is parsed.
func decodeWeights(b []byte, inPlace func(name string, form byte) bool, alloc func(n int) []float32, workers int) (map[string]Tensor, error) {
	if alloc == nil {
		alloc = func(n int) []float32 { return make([]float32, n) }
	}
	if len(b) < len(weightMagic)+4 || string(b[:len(weightMagic)]) != weightMagic {
		return nil, errors.New("not a USE Lite weight file (bad magic): regenerate it with `go generate ./sentence`")
	}
	r := reader{b: b[len(weightMagic):]}
	n := int(r.u32())
	if n > len(r.b)/4 { // a tensor takes at least four bytes of header
		return nil, errors.New("weight file names more tensors than it holds: regenerate it with `go generate ./sentence`")
	}
	out := make(map[string]Tensor, n)
	var work []dequantJob
	for range n {
		name := string(r.bytes(int(r.u16())))
		form, rank := r.u8(), int(r.u8())
		t := Tensor{Name: name, Shape: make([]int, rank), Form: form}
		size := 1
		for i := range rank {
			t.Shape[i] = int(r.u32())
			size *= t.Shape[i]
			if size > len(r.b) { // also keeps the product from overflowing
				break
			}
		}
		if form != FormFloat32 && rank == 0 {
			return nil, fmt.Errorf("tensor %q is a scalar in a quantised form: regenerate the weight file with `go generate ./sentence`", name)
		}
		if r.err != nil || size > len(r.b) {
			return nil, fmt.Errorf("weight file truncated at tensor %q: regenerate it with `go generate ./sentence`", name)
		}
		switch form {
		case FormFloat32:
			t.Data = alloc(size)
			for i := range t.Data {
				t.Data[i] = math.Float32frombits(r.u32())
			}
		case FormFloat16:
			t.Data = alloc(size)
			for i := range t.Data {
				t.Data[i] = fromHalf(r.u16())
			}
		case FormInt8Row, FormInt8Col:
			n := t.Rows()
			if form == FormInt8Col {
				n = t.Cols()
			}
			t.scales = make([]float32, n)
			for i := range t.scales {
				t.scales[i] = math.Float32frombits(r.u32())
			}
			t.q = r.bytes(size)
			if inPlace == nil || !inPlace(name, form) {
				t.Data = alloc(size)
				work = splitDequant(work, t.Data, t.q, t.scales, t.Cols(), form)
				t.q, t.scales = nil, nil
			}
		default:
			return nil, fmt.Errorf("tensor %q has unknown form %d: regenerate the weight file with `go generate ./sentence`", name, form)
		}
		if r.err != nil {
			return nil, fmt.Errorf("weight file truncated at tensor %q: regenerate it with `go generate ./sentence`", name)
		}
		out[name] = t
	}
	runDequant(work, workers)
	return out, nil
}

// dequantise writes q's values times their scales into dst, a row at a
// time: the scale index is found per row, not by a division per value.
// Each value is float32(q)·scale, the one rounding every reader of the
// weights relies on.
func dequantise(dst []float32, q []byte, scales []float32, cols int, form byte) {
	if cols == 0 {
		return
	}
	for r := 0; r+cols <= len(q); r += cols {
		src, out := q[r:r+cols:r+cols], dst[r:r+cols:r+cols]
		if form == FormInt8Col {
			s := scales[:cols:cols]
			for i, c := range src {
				out[i] = float32(int8(c)) * s[i]
			}
			continue
		}
		s := scales[r/cols]
		for i, c := range src {
			out[i] = float32(int8(c)) * s
		}
	}
}

// int8Scales returns the scale of every row (or column): its largest
// magnitude maps to 127.
func int8Scales(t Tensor, form byte) []float32 {
	n := t.Rows()
	if form == FormInt8Col {
		n = t.Cols()
	}
	scales := make([]float32, n)
	for i, x := range t.Data {
		j := scaleIndex(i, t.Cols(), form)
		scales[j] = max(scales[j], abs32(x))
	}
	for j := range scales {
		scales[j] /= 127
	}
	return scales
}

// scaleIndex is the scale that element i of a matrix with cols columns
// uses.
func scaleIndex(i, cols int, form byte) int {
	if form == FormInt8Col {
		return i % cols
	}
	return i / cols
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n > len(r.b) {
		r.err = errors.New("truncated")
		return make([]byte, n)
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

func (r *reader) u8() byte    { return r.bytes(1)[0] }
func (r *reader) u16() uint16 { return binary.LittleEndian.Uint16(r.bytes(2)) }
func (r *reader) u32() uint32 { return binary.LittleEndian.Uint32(r.bytes(4)) }

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
