package sentence

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// The package's tests keep Default's weight cache in a directory of
// their own, not in the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sentence-cache-")
	if err != nil {
		panic(err)
	}
	shared.CacheDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestWeightSumMatchesFile(t *testing.T) {
	sum := sha256.Sum256(weightFile)
	if got := hex.EncodeToString(sum[:]); got != weightSum {
		t.Fatalf("weightSum is %s, the embedded weights hash to %s: update weightsum.go", weightSum, got)
	}
}

// decodedModel is the model built from DecodeWeights, every tensor
// decoded on the heap: what every load path must match bit for bit.
func decodedModel(t *testing.T) *Model {
	t.Helper()
	w, err := DecodeWeights(weightFile)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(w)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameVectors checks that e gives want's vectors, bit for bit, for the
// reference sentences.
func sameVectors(t *testing.T, e *Encoder, want *Model) {
	t.Helper()
	if err := e.Load(); err != nil {
		t.Fatal(err)
	}
	for _, r := range loadReferences(t)[:20] {
		ids := e.tok.Encode(r.Text)
		got, exp := e.model.Forward(ids), want.Forward(ids)
		for i := range exp {
			if math.Float32bits(got[i]) != math.Float32bits(exp[i]) {
				t.Fatalf("Forward(%q)[%d] = %v, want %v (bit for bit)", r.Text, i, got[i], exp[i])
			}
		}
	}
}

// The first load writes the cache, the next maps it, and both give the
// decoded model's vectors.
func TestLoadFromCacheMatchesDecodedWeights(t *testing.T) {
	dir := t.TempDir()
	want := decodedModel(t)
	first := &Encoder{CacheDir: dir}
	sameVectors(t, first, want)
	if first.cached {
		t.Fatal("the first load read a cache that did not exist")
	}
	fi, err := os.Stat(filepath.Join(dir, cacheName()))
	if err != nil {
		t.Fatalf("the first load wrote no cache: %v", err)
	}
	if fi.Size() <= cacheHeader || fi.Mode().Perm()&0o077 != 0 {
		t.Fatalf("cache file of %d bytes, mode %v", fi.Size(), fi.Mode())
	}
	second := &Encoder{CacheDir: dir}
	sameVectors(t, second, want)
	if !second.cached {
		t.Fatal("the second load did not map the cache")
	}
	if second.model.emb.q == nil {
		t.Fatal("the cached load decoded the embedding table")
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	if len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// A cache that is not this one (another format version, other weights,
// another length) or that was damaged is not used: the load decodes the
// weights as if there were none and writes the cache again.
func TestLoadRebuildsABadCache(t *testing.T) {
	want := decodedModel(t)
	dir := t.TempDir()
	if err := (&Encoder{CacheDir: dir}).Load(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, cacheName())
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := (len(good) - cacheHeader) / 4
	damage := map[string]func(b []byte) []byte{
		"empty":       func([]byte) []byte { return nil },
		"header only": func(b []byte) []byte { return b[:cacheHeader] },
		"cut short":   func(b []byte) []byte { return b[:len(b)-4] },
		"one more":    func(b []byte) []byte { return append(b, 0, 0, 0, 0) },
		"magic":       func(b []byte) []byte { b[0] ^= 1; return b },
		"version":     func(b []byte) []byte { b[8]++; return b },
		"byte order":  func(b []byte) []byte { b[12], b[15] = b[15], b[12]; return b },
		"weight sum":  func(b []byte) []byte { b[20] ^= 0x80; return b },
		"count":       func(b []byte) []byte { b[48]++; return b },
		"first value": func(b []byte) []byte { b[cacheHeader] ^= 1; return b },
		"last value":  func(b []byte) []byte { b[len(b)-1] ^= 0x40; return b },
		"zeroed body": func(b []byte) []byte { clear(b[cacheHeader:]); return b },
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path, f(append([]byte(nil), good...)), 0o600); err != nil {
				t.Fatal(err)
			}
			e := &Encoder{CacheDir: dir}
			sameVectors(t, e, want)
			if e.cached {
				t.Fatalf("a cache with a damaged %s was used", name)
			}
			again, err := os.ReadFile(path)
			if err != nil || len(again) != cacheHeader+4*n || string(again) != string(good) {
				t.Fatalf("the cache was not rewritten (%d bytes, %v)", len(again), err)
			}
		})
	}
}

// A cache directory that cannot be written (here a file stands where it
// should be) leaves the encoder working, decoding every time.
func TestLoadWithoutAWritableCache(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := &Encoder{CacheDir: filepath.Join(blocker, "cache")}
	sameVectors(t, e, decodedModel(t))
	if e.cached {
		t.Fatal("mapped a cache that cannot exist")
	}
}
