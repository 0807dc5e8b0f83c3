package model2vec

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// tensor is one tensor for writeSafetensors.
type tensor struct {
	name  string
	dtype string
	shape []int64
	data  []byte
}

// writeSafetensors writes a safetensors file the way the format specifies.
func writeSafetensors(t testing.TB, path string, ts []tensor) {
	t.Helper()
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var data []byte
	for _, x := range ts {
		header[x.name] = map[string]any{"dtype": x.dtype, "shape": x.shape, "data_offsets": []int{len(data), len(data) + len(x.data)}}
		data = append(data, x.data...)
	}
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	buf := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	buf = append(append(buf, h...), data...)
	if err := os.WriteFile(path, buf, 0o600); err != nil {
		t.Fatal(err)
	}
}

func f32Bytes(v []float32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// floatToHalf converts exactly representable small values for the tests.
func floatToHalf(f float32) uint16 {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	if f == 0 {
		return sign
	}
	exp := int((bits>>23)&0xff) - 127 + 15
	return sign | uint16(exp)<<10 | uint16((bits>>13)&0x3ff)
}

func f16Bytes(v []float32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint16(b, floatToHalf(x))
	}
	return b
}

// tinyVocab gives animals one axis, vehicles another, and the rest a third.
var tinyVocab = []struct {
	tok string
	vec [4]float32
}{
	{"[UNK]", [4]float32{0, 0, 0, 0}},
	{"the", [4]float32{0, 0, 0.25, 0}},
	{"cat", [4]float32{1, 0, 0, 0.5}},
	{"dog", [4]float32{1, 0, 0, -0.5}},
	{"##s", [4]float32{0, 0, 0.125, 0}},
	{"car", [4]float32{0, 1, 0, 0.5}},
	{"auto", [4]float32{0, 0.5, 0, 0}},
	{"##mobile", [4]float32{0, 0.5, 0, 0}},
	{"sat", [4]float32{0, 0, 1, 0}},
	{".", [4]float32{0, 0, 0, 0}},
}

// writeTinyModel writes a WordPiece model2vec model with F32 or F16 vectors.
func writeTinyModel(t testing.TB, dtype string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tiny-"+strings.ToLower(dtype))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	vocab := map[string]int{}
	var flat []float32
	for i, v := range tinyVocab {
		vocab[v.tok] = i
		flat = append(flat, v.vec[:]...)
	}
	tok := map[string]any{
		"version":       "1.0",
		"normalizer":    map[string]any{"type": "BertNormalizer", "lowercase": true, "clean_text": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"model":         map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100, "vocab": vocab},
	}
	buf, _ := json.Marshal(tok)
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), buf, 0o600); err != nil {
		t.Fatal(err)
	}
	data := f32Bytes(flat)
	if dtype == "F16" {
		data = f16Bytes(flat)
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), []tensor{{"embeddings", dtype, []int64{int64(len(tinyVocab)), 4}, data}})
	return dir
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestEmbedder_Embed(t *testing.T) {
	ctx := context.Background()
	for _, dtype := range []string{"F32", "F16"} {
		t.Run(dtype, func(t *testing.T) {
			e := New(writeTinyModel(t, dtype))
			if e.Dim() != 4 || e.Model() != "model2vec:tiny-"+strings.ToLower(dtype) {
				t.Fatalf("Dim %d Model %q", e.Dim(), e.Model())
			}
			vs, err := e.Embed(ctx, []string{"The cats sat.", "the dog", "An AUTOMOBILE", "car", "zebra"})
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range vs[:4] {
				if n := dot(v, v); math.Abs(n-1) > 1e-5 {
					t.Fatalf("vector %d norm² %g", i, n)
				}
			}
			if n := dot(vs[4], vs[4]); n != 0 {
				t.Fatalf("unknown words must give a zero vector, norm² %g", n)
			}
			if a, b := dot(vs[2], vs[3]), dot(vs[2], vs[1]); a <= b {
				t.Fatalf("automobile·car %.3f should beat automobile·dog %.3f", a, b)
			}
			// mean of cat, ##s, sat (the is lower-cased, "." has a zero vector)
			want := []float32{1, 0, 0.25 + 0.125 + 1, 0.5}
			recall.Normalize(want)
			for j := range want {
				if math.Abs(float64(vs[0][j]-want[j])) > 1e-3 {
					t.Fatalf("vector 0 = %v, want %v", vs[0], want)
				}
			}
		})
	}
	t.Run("Missing", func(t *testing.T) {
		e := New(filepath.Join(t.TempDir(), "nope"))
		if e.Dim() != 0 {
			t.Fatal("Dim of a missing model must be 0")
		}
		_, err := e.Embed(ctx, []string{"x"})
		if recall.ErrorCode(err) != recall.EUNAVAILABLE || !strings.Contains(recall.ErrorMessage(err), "model_path") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestTokenizer(t *testing.T) {
	t.Run("WordPiece", func(t *testing.T) {
		dir := writeTinyModel(t, "F32")
		buf, _ := os.ReadFile(filepath.Join(dir, "tokenizer.json"))
		tok, err := parseTokenizer(buf)
		if err != nil {
			t.Fatal(err)
		}
		got := tok.encode("The cats, the AUTOMOBILE; zebra dogs", nil)
		want := []int{1, 2, 4, 1, 6, 7, 3, 4} // zebra is unknown, the punctuation not in vocab
		if len(got) != len(want) {
			t.Fatalf("ids = %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("ids = %v, want %v", got, want)
			}
		}
	})
	t.Run("Unigram", func(t *testing.T) {
		buf := []byte(`{"normalizer": {"type": "Sequence", "normalizers": [{"type": "Lowercase"}]},
			"pre_tokenizer": {"type": "Metaspace", "replacement": "▁"},
			"model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0], ["▁the", -1], ["▁", -2], ["cat", -2], ["s", -3], ["▁cats", -2.5], ["▁ca", -4], ["t", -4]]}}`)
		tok, err := parseTokenizer(buf)
		if err != nil {
			t.Fatal(err)
		}
		got := tok.encode("The CATS cat", nil)
		want := []int{1, 5, 2, 3} // ▁the, ▁cats, ▁ + cat (better than ▁ca + t)
		if len(got) != len(want) {
			t.Fatalf("ids = %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("ids = %v, want %v", got, want)
			}
		}
	})
	t.Run("BPEUnsupported", func(t *testing.T) {
		_, err := parseTokenizer([]byte(`{"model": {"type": "BPE", "vocab": {}, "merges": []}}`))
		if err == nil || !strings.Contains(err.Error(), "not supported") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestParseSafetensors(t *testing.T) {
	good := func() []byte {
		dir := t.TempDir()
		writeSafetensors(t, filepath.Join(dir, "m"), []tensor{{"embeddings", "F32", []int64{2, 2}, f32Bytes([]float32{1, 2, 3, 4})}})
		b, _ := os.ReadFile(filepath.Join(dir, "m"))
		return b
	}
	t.Run("OK", func(t *testing.T) {
		st, err := parseSafetensors(good())
		if err != nil {
			t.Fatal(err)
		}
		v, shape, err := st.floats("embeddings")
		if err != nil || len(v) != 4 || v[3] != 4 || shape[0] != 2 {
			t.Fatalf("v %v shape %v err %v", v, shape, err)
		}
	})
	for name, mutate := range map[string]func([]byte) []byte{
		"Short":          func(b []byte) []byte { return b[:4] },
		"HeaderTooLong":  func(b []byte) []byte { binary.LittleEndian.PutUint64(b, 1<<40); return b },
		"Truncated":      func(b []byte) []byte { return b[:len(b)-1] },
		"NotJSON":        func(b []byte) []byte { b[8] = 'x'; return b },
		"BadDtype":       func(b []byte) []byte { return []byte(strings.Replace(string(b), `"F32"`, `"Q4"`, 1)) },
		"ShapeMismatch":  func(b []byte) []byte { return []byte(strings.Replace(string(b), `[2,2]`, `[2,3]`, 1)) },
		"NegativeOffset": func(b []byte) []byte { return []byte(strings.Replace(string(b), `[0,16]`, `[-4,12]`, 1)) },
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := parseSafetensors(mutate(good())); err == nil {
				t.Fatal("want an error")
			}
		})
	}
	t.Run("Half", func(t *testing.T) {
		for _, f := range []float32{0, 1, -2, 0.5, 65504, 6.103515625e-05} {
			if got := halfToFloat(floatToHalf(f)); got != f {
				t.Errorf("half(%g) = %g", f, got)
			}
		}
		if got := halfToFloat(0x0001); got != 5.960464477539063e-08 {
			t.Errorf("smallest subnormal = %g", got)
		}
		if !math.IsInf(float64(halfToFloat(0x7c00)), 1) || !math.IsNaN(float64(halfToFloat(0x7e00))) {
			t.Error("inf/nan")
		}
	})
}

func FuzzParseSafetensors(f *testing.F) {
	hdr := `{"embeddings":{"dtype":"F16","shape":[2,1],"data_offsets":[0,4]}}`
	seed := binary.LittleEndian.AppendUint64(nil, uint64(len(hdr)))
	seed = append(append(seed, hdr...), 1, 2, 3, 4)
	f.Add(seed)
	f.Add([]byte{})
	f.Add([]byte{255, 255, 255, 255, 255, 255, 255, 255, '{', '}'})
	f.Fuzz(func(t *testing.T, buf []byte) {
		st, err := parseSafetensors(buf)
		if err != nil {
			return
		}
		for name := range st.tensors {
			st.floats(name) // must not panic on any accepted header
			st.ints(name)
		}
	})
}

func FuzzTokenizer(f *testing.F) {
	dir := writeTinyModel(f, "F32")
	buf, _ := os.ReadFile(filepath.Join(dir, "tokenizer.json"))
	tok, err := parseTokenizer(buf)
	if err != nil {
		f.Fatal(err)
	}
	uni, err := parseTokenizer([]byte(`{"pre_tokenizer": {"type": "Metaspace"}, "model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0], ["▁a", -1], ["b", -2]]}}`))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"", "The cats sat.", "日本語 AUTOMOBILE", "\xff\xfe", "a b ab ba"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, tk := range []*tokenizer{tok, uni} {
			for _, id := range tk.encode(text, nil) {
				if id < 0 || id >= len(tk.vocab) || id == tk.unk {
					t.Fatalf("id %d out of range or unknown", id)
				}
			}
		}
	})
}
