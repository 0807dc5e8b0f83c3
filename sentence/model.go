package sentence

import (
	"fmt"
	"math"

	"github.com/recall-mem/recall/internal/vecmath"
)

// The shape of USE Lite, as its graph has it.
const (
	maxTokens = 128 // the graph drops tokens from this position on
	heads     = 4
	Dim       = 512 // output dimension
	lnEpsilon = 1e-6
)

// Model is USE Lite's forward pass written out for exactly its graph: an
// embedding (counted twice, as the graph does) with sinusoidal positions, two pre-norm transformer layers
// (the first widens 256 → 512 through a projected residual), mean pooling
// over the tokens, a tanh layer and L2 normalisation.
type Model struct {
	emb        table     // vocab × 256
	timescales []float32 // 128
	timing     timing    // the signal of timescales, per position
	res0       linear    // 256 → 512, the first layer's residual
	layers     [2]layer
	hidden     linear // 512 → 512, tanh
}

type layer struct {
	ln1Scale, ln1Bias []float32
	qkv, out          linear
	ln2Scale, ln2Bias []float32
	ff1, ff2          linear
}

// NewModel builds the model from decoded weights.
func NewModel(w map[string]Tensor) (*Model, error) {
	var missing []string
	get := func(name string) Tensor {
		t, ok := w[name]
		if !ok {
			missing = append(missing, name)
			return Tensor{Shape: []int{0, 0}}
		}
		return t
	}
	m := &Model{
		emb:        newTable(get("emb")),
		timescales: get("timescales").Data,
		res0:       newLinear(get("res0.w"), get("res0.b")),
		hidden:     newLinear(get("hidden.w"), get("hidden.b")),
	}
	for i := range m.layers {
		p := fmt.Sprintf("l%d.", i)
		m.layers[i] = layer{
			ln1Scale: get(p + "ln1.scale").Data, ln1Bias: get(p + "ln1.bias").Data,
			qkv:      newLinear(get(p+"qkv.w"), get(p+"qkv.b")),
			out:      newLinear(get(p+"out.w"), get(p+"out.b")),
			ln2Scale: get(p + "ln2.scale").Data, ln2Bias: get(p + "ln2.bias").Data,
			ff1: newLinear(get(p+"ff1.w"), get(p+"ff1.b")),
			ff2: newLinear(get(p+"ff2.w"), get(p+"ff2.b")),
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("weight file lacks %v: regenerate it with `go generate ./sentence`", missing)
	}
	return m, nil
}

// linears lists the model's dense layers.
func (m *Model) linears() []*linear {
	out := []*linear{&m.res0, &m.hidden}
	for i := range m.layers {
		l := &m.layers[i]
		out = append(out, &l.qkv, &l.out, &l.ff1, &l.ff2)
	}
	return out
}

// Forward returns the unit-length 512-d vector of a token sequence; ids
// past maxTokens are dropped, as the graph does. A sequence without
// tokens has no meaning to encode: its vector is zero.
func (m *Model) Forward(ids []int) []float32 {
	out := make([]float32, Dim)
	if len(ids) == 0 {
		return out
	}
	if len(ids) > maxTokens {
		ids = ids[:maxTokens]
	}
	t := len(ids)
	ws := getWorkspace()
	defer ws.done()
	width, rows := m.emb.cols, m.emb.rows
	x := ws.take(t * width)
	sig := m.timing.rows(t, m.timescales)
	for p, id := range ids {
		if id < 0 || id >= rows {
			id = unknownID
		}
		// The graph adds the timing signal to the embedding and then adds
		// the embedding once more: the stream starts at 2·emb + timing.
		row := x[p*width : (p+1)*width]
		m.emb.twice(row, id)
		n := 2 * len(m.timescales)
		for i, v := range sig[p*n : (p+1)*n] {
			row[i] += v
		}
	}
	// Layer 0 widens the stream: its residual is a projection of x.
	res := ws.take(t * m.res0.out)
	m.res0.apply(ws, res, x, t)
	h := m.layers[0].forward(ws, x, res, t)
	h = m.layers[1].forward(ws, h, h, t)

	// Mean over tokens, then the tanh layer and unit length.
	d := m.hidden.in
	pooled := ws.take(d)
	for i := range t {
		for j, v := range h[i*d : (i+1)*d] {
			pooled[j] += v
		}
	}
	for j := range pooled {
		pooled[j] /= float32(t)
	}
	m.hidden.apply(ws, out, pooled, 1)
	for j, v := range out {
		out[j] = float32(math.Tanh(float64(v)))
	}
	var sum float64
	for _, v := range out {
		sum += float64(v) * float64(v)
	}
	inv := float32(1 / math.Sqrt(max(sum, 1e-12)))
	for j := range out {
		out[j] *= inv
	}
	return out
}

// forward runs one layer over x (t × in) with residual res (t × out) and
// returns the new stream (t × out), its buffers taken from ws; the
// layer's temporaries are given back before it returns.
func (l *layer) forward(ws *workspace, x, res []float32, t int) []float32 {
	in, d := l.qkv.in, l.out.out
	f, y := ws.take(t*d), ws.take(t*d)
	temps := ws.mark()
	normed := ws.take(t * in)
	layerNorm(normed, x, in, l.ln1Scale, l.ln1Bias)
	qkv := ws.take(t * l.qkv.out)
	l.qkv.apply(ws, qkv, normed, t)
	ctx := ws.take(t * in)
	attend(ctx, qkv, ws.take(t*t), t, in)
	l.out.apply(ws, y, ctx, t)
	for i := range y {
		y[i] += res[i]
	}
	ws.release(temps)
	// Feed-forward block with its own residual.
	normed2 := ws.take(t * d)
	layerNorm(normed2, y, d, l.ln2Scale, l.ln2Bias)
	mid := ws.take(t * l.ff1.out)
	l.ff1.apply(ws, mid, normed2, t)
	for i, v := range mid {
		mid[i] = max(v, 0)
	}
	l.ff2.apply(ws, f, mid, t)
	for i := range f {
		f[i] += y[i]
	}
	ws.release(temps)
	return f
}

// attend is multi-head scaled dot-product attention over every token (a
// single sentence has no padding to mask). qkv holds, per token, the
// queries, keys and values side by side, each `width` wide and split
// into heads by contiguous blocks. A head's scores are one matrix
// product of its queries and keys, four keys by three queries per kernel
// call, scaled afterwards. scores is t × t of room for them.
func attend(ctx, qkv, scores []float32, t, width int) {
	depth := width / heads
	scale := float32(1 / math.Sqrt(float64(depth)))
	stride := 3 * width
	var block [12]float32
	for hd := range heads {
		off := hd * depth
		q := func(i int) []float32 { return qkv[i*stride+off : i*stride+off+depth] }
		k := func(j int) []float32 { return qkv[j*stride+width+off : j*stride+width+off+depth] }
		i := 0
		for ; i+3 <= t; i += 3 {
			j := 0
			for ; j+4 <= t && vecmath.Dot4x3(qkv[j*stride+width+off:], stride, qkv[i*stride+off:], stride, depth, &block); j += 4 {
				for c := range 3 {
					copy(scores[(i+c)*t+j:(i+c)*t+j+4], block[c*4:c*4+4])
				}
			}
			for ; j < t; j++ {
				for c := range 3 {
					scores[(i+c)*t+j] = vecmath.Dot(q(i+c), k(j))
				}
			}
		}
		for ; i < t; i++ {
			for j := range t {
				scores[i*t+j] = vecmath.Dot(q(i), k(j))
			}
		}
		for i := range t {
			row := scores[i*t : (i+1)*t]
			top := float32(math.Inf(-1))
			for j := range row {
				row[j] *= scale
				top = max(top, row[j])
			}
			var sum float32
			for j := range row {
				row[j] = float32(math.Exp(float64(row[j] - top)))
				sum += row[j]
			}
			c := ctx[i*width+off : i*width+off+depth]
			clear(c)
			for j, e := range row {
				vecmath.Axpy(e/sum, qkv[j*stride+2*width+off:j*stride+2*width+off+depth], c)
			}
		}
	}
}

// layerNorm normalises each row of x (rows of n, at most maxTokens) to
// zero mean and unit variance, then scales and shifts it.
func layerNorm(dst, x []float32, n int, scale, bias []float32) {
	rows := len(x) / n
	var mean, inv [maxTokens]float32
	rowStats(mean[:rows], inv[:rows], x, n)
	for r := range rows {
		row, out := x[r*n:(r+1)*n], dst[r*n:(r+1)*n]
		m, s := mean[r], inv[r]
		for i, v := range row {
			out[i] = (v-m)*s*scale[i] + bias[i]
		}
	}
}

// rowStats sets mean[r] to the mean of row r of x (rows of n) and inv[r]
// to the inverse of its standard deviation (epsilon added). Each row's
// sums run left to right, one addition after another as a row alone
// would have them; four rows go side by side, so that four additions are
// under way at once instead of each waiting on the one before.
func rowStats(mean, inv, x []float32, n int) {
	r := 0
	for ; r+4 <= len(mean); r += 4 {
		a := x[r*n : (r+1)*n]
		b, c, d := x[(r+1)*n : (r+2)*n][:len(a)], x[(r+2)*n : (r+3)*n][:len(a)], x[(r+3)*n : (r+4)*n][:len(a)]
		var sa, sb, sc, sd float32
		for i, v := range a {
			sa += v
			sb += b[i]
			sc += c[i]
			sd += d[i]
		}
		ma, mb, mc, md := sa/float32(n), sb/float32(n), sc/float32(n), sd/float32(n)
		var va, vb, vc, vd float32
		for i, v := range a {
			va += (v - ma) * (v - ma)
			vb += (b[i] - mb) * (b[i] - mb)
			vc += (c[i] - mc) * (c[i] - mc)
			vd += (d[i] - md) * (d[i] - md)
		}
		mean[r], mean[r+1], mean[r+2], mean[r+3] = ma, mb, mc, md
		inv[r], inv[r+1], inv[r+2], inv[r+3] = invStd(va, n), invStd(vb, n), invStd(vc, n), invStd(vd, n)
	}
	for ; r < len(mean); r++ {
		row := x[r*n : (r+1)*n]
		var sum float32
		for _, v := range row {
			sum += v
		}
		m := sum / float32(n)
		var variance float32
		for _, v := range row {
			variance += (v - m) * (v - m)
		}
		mean[r], inv[r] = m, invStd(variance, n)
	}
}

// invStd is 1/sqrt(variance + epsilon) of n values whose squared
// deviations sum to squares.
func invStd(squares float32, n int) float32 {
	variance := squares / float32(n)
	return float32(1 / math.Sqrt(float64(variance+lnEpsilon)))
}
