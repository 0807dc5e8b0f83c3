package model2vec

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// maxHeader caps the JSON header of a safetensors file, as the format's
// reference implementation does, so a corrupt length cannot allocate
// gigabytes.
const maxHeader = 100 << 20

// tensorInfo is one entry of a safetensors header.
type tensorInfo struct {
	Dtype       string   `json:"dtype"`
	Shape       []int64  `json:"shape"`
	DataOffsets [2]int64 `json:"data_offsets"`
}

// safetensors is a parsed file: the header and the data that follows it.
type safetensors struct {
	tensors map[string]tensorInfo
	data    []byte
}

// parseSafetensors reads the format: a little-endian uint64 header length,
// a JSON object naming each tensor's dtype, shape and byte range, then the
// raw data. Every range is checked against the data and the shape.
func parseSafetensors(buf []byte) (*safetensors, error) {
	if len(buf) < 8 {
		return nil, fmt.Errorf("file too short for a safetensors header")
	}
	n := binary.LittleEndian.Uint64(buf)
	if n > maxHeader || n > uint64(len(buf)-8) {
		return nil, fmt.Errorf("header length %d is beyond the file (%d bytes)", n, len(buf))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(buf[8:8+n], &raw); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	st := &safetensors{tensors: map[string]tensorInfo{}, data: buf[8+n:]}
	for name, msg := range raw {
		if name == "__metadata__" {
			continue
		}
		var ti tensorInfo
		if err := json.Unmarshal(msg, &ti); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
		if err := ti.check(int64(len(st.data))); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
		st.tensors[name] = ti
	}
	return st, nil
}

func dtypeSize(dtype string) int64 {
	switch dtype {
	case "F64", "I64":
		return 8
	case "F32", "I32":
		return 4
	case "F16", "BF16", "I16":
		return 2
	case "I8", "U8":
		return 1
	}
	return 0
}

func (ti tensorInfo) check(dataLen int64) error {
	size := dtypeSize(ti.Dtype)
	if size == 0 {
		return fmt.Errorf("unsupported dtype %q", ti.Dtype)
	}
	count := int64(1)
	for _, d := range ti.Shape {
		if d < 0 || (d > 0 && count > math.MaxInt32/d) {
			return fmt.Errorf("bad shape %v", ti.Shape)
		}
		count *= d
	}
	begin, end := ti.DataOffsets[0], ti.DataOffsets[1]
	if begin < 0 || end < begin || end > dataLen {
		return fmt.Errorf("data range [%d, %d) outside %d bytes of data", begin, end, dataLen)
	}
	if end-begin != count*size {
		return fmt.Errorf("data range of %d bytes does not hold shape %v of %s", end-begin, ti.Shape, ti.Dtype)
	}
	return nil
}

// floats returns a tensor as float32, converting from F32, F16, BF16, F64
// or I8.
func (st *safetensors) floats(name string) ([]float32, []int64, error) {
	ti, ok := st.tensors[name]
	if !ok {
		return nil, nil, fmt.Errorf("no tensor %q", name)
	}
	b := st.data[ti.DataOffsets[0]:ti.DataOffsets[1]]
	n := int(int64(len(b)) / dtypeSize(ti.Dtype))
	out := make([]float32, n)
	switch ti.Dtype {
	case "F32":
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:]))
		}
	case "F16":
		for i := range out {
			out[i] = halfToFloat(binary.LittleEndian.Uint16(b[i*2:]))
		}
	case "BF16":
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[i*2:])) << 16)
		}
	case "F64":
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(b[i*8:])))
		}
	case "I8":
		for i := range out {
			out[i] = float32(int8(b[i]))
		}
	default:
		return nil, nil, fmt.Errorf("tensor %q has dtype %s, not a float type", name, ti.Dtype)
	}
	return out, ti.Shape, nil
}

// ints returns an integer tensor (I32 or I64) as ints.
func (st *safetensors) ints(name string) ([]int, error) {
	ti, ok := st.tensors[name]
	if !ok {
		return nil, fmt.Errorf("no tensor %q", name)
	}
	b := st.data[ti.DataOffsets[0]:ti.DataOffsets[1]]
	switch ti.Dtype {
	case "I32":
		out := make([]int, len(b)/4)
		for i := range out {
			out[i] = int(int32(binary.LittleEndian.Uint32(b[i*4:])))
		}
		return out, nil
	case "I64":
		out := make([]int, len(b)/8)
		for i := range out {
			out[i] = int(int64(binary.LittleEndian.Uint64(b[i*8:])))
		}
		return out, nil
	}
	return nil, fmt.Errorf("tensor %q has dtype %s, not an integer type", name, ti.Dtype)
}

// halfToFloat converts an IEEE 754 binary16 to float32, subnormals,
// infinities and NaN included.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: value = frac × 2^-24
		f := float32(frac) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}
