package sentence

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/recall-mem/recall/internal/vecmath"
)

// vectorBitsFile (one per GOAMD64 level that rounds differently) holds,
// per text of bitsTexts, a digest of the exact bits of its vector as the
// FMA kernels made it before the 16-lane ones came.

// bitsTexts returns the reference sentences and texts of every length
// from 1 to 70 pieces and one past maxTokens, so that every count of
// tokens left over by the blocked kernels (groups of six and of three)
// is among them.
func bitsTexts(t *testing.T) []string {
	var texts []string
	for _, r := range loadReferences(t) {
		texts = append(texts, r.Text)
	}
	words := strings.Fields("we decided to move the nightly billing export to the new cluster after the outage last week because the old disks kept filling up and nobody was paged in time")
	var b strings.Builder
	for i := range 70 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[i%len(words)])
		texts = append(texts, b.String())
	}
	return append(texts, strings.Repeat("a long text about the cluster ", 40))
}

// vectorDigest is the SHA-256 of v's float32 bits, little-endian.
func vectorDigest(v []float32) string {
	h := sha256.New()
	var word [4]byte
	for _, x := range v {
		binary.LittleEndian.PutUint32(word[:], math.Float32bits(x))
		h.Write(word[:])
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// Vectors are bit for bit those of the 8-lane FMA kernels, with and
// without the 16-lane ones (stored vectors and query vectors must not
// drift apart when a faster kernel runs). The digests hold for amd64 with
// FMA, where they were made; elsewhere other kernels sum in another
// order. `go test ./sentence -run TestVectorBits -update` rewrites the
// build's file.
func TestVectorBitsUnchanged(t *testing.T) {
	if runtime.GOARCH != "amd64" || !vecmath.HasFMA {
		t.Skip("the digests are of the amd64 FMA kernels' vectors")
	}
	e := Default()
	texts := bitsTexts(t)
	embed := func() []string {
		vecs, err := e.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		lines := make([]string, len(vecs))
		for i, v := range vecs {
			lines[i] = vectorDigest(v)
		}
		return lines
	}
	if *update {
		if err := os.WriteFile(vectorBitsFile, []byte(strings.Join(embed(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(vectorBitsFile)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(b))
	if len(want) != len(texts) {
		t.Fatalf("%s has %d digests for %d texts", vectorBitsFile, len(want), len(texts))
	}
	check := func(name string) {
		for i, got := range embed() {
			if got != want[i] {
				ids, _ := e.Tokens(texts[i])
				t.Errorf("%s: the vector of %q (%d pieces) changed", name, texts[i], len(ids))
			}
		}
	}
	check("as the CPU allows")
	if vecmath.HasAVX512 {
		vecmath.HasAVX512 = false
		defer func() { vecmath.HasAVX512 = true }()
		check("8-lane kernels only")
	}
}
