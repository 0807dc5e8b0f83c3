package sentence

// table is the embedding table: decoded float32 rows, or int8 rows read in
// place from the weight file and scaled as they are read. A query reads a
// few of its thousands of rows, so decoding it all at load costs more
// than it saves.
type table struct {
	rows, cols int
	data       []float32 // decoded rows, or nil
	q          []byte    // int8 rows in place, when data is nil
	scales     []float32 // one per column (FormInt8Col) or per row
	perColumn  bool
}

func newTable(t Tensor) table {
	return table{rows: t.Rows(), cols: t.Cols(), data: t.Data, q: t.q, scales: t.scales, perColumn: t.Form == FormInt8Col}
}

// twice writes two times row id into dst: the graph adds the embedding
// to the stream twice. A value is float32(q)·scale, rounded as the decoded
// table has it, so that both give the same bits.
func (t *table) twice(dst []float32, id int) {
	lo, hi := id*t.cols, (id+1)*t.cols
	if t.data != nil {
		for i, v := range t.data[lo:hi] {
			dst[i] = 2 * v
		}
		return
	}
	if t.perColumn {
		s := t.scales[:t.cols]
		for i, c := range t.q[lo:hi] {
			dst[i] = 2 * float32(float32(int8(c))*s[i])
		}
		return
	}
	s := t.scales[id]
	for i, c := range t.q[lo:hi] {
		dst[i] = 2 * float32(float32(int8(c))*s)
	}
}
