package hashing_test

import (
	"context"
	"math"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/hashing"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func embedOne(t testing.TB, e recall.Embedder, text string) []float32 {
	t.Helper()
	vs, err := e.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	return vs[0]
}

func TestHashing_Embed(t *testing.T) {
	e := hashing.NewHashing(0)
	t.Run("ModelAndDim", func(t *testing.T) {
		if got, want := e.Dim(), hashing.DefaultDim; got != want {
			t.Fatalf("Dim() = %d, want %d", got, want)
		}
		if got, want := e.Model(), hashing.HashingModel; got != want {
			t.Fatalf("Model() = %q, want %q", got, want)
		}
		if got := hashing.NewHashing(128).Model(); got == e.Model() {
			t.Fatalf("a different dimension must have a different model name, got %q", got)
		}
	})
	t.Run("Normalised", func(t *testing.T) {
		for _, text := range []string{"deploy the service", "GPU", "Überprüfung der Größe", "日本語のテキスト", "a b c d e f " + string(make([]byte, 100))} {
			v := embedOne(t, e, text)
			if len(v) != e.Dim() {
				t.Fatalf("%q: len = %d", text, len(v))
			}
			if n := math.Sqrt(dot(v, v)); math.Abs(n-1) > 1e-5 {
				t.Errorf("%q: norm = %g, want 1", text, n)
			}
		}
	})
	t.Run("EmptyIsZero", func(t *testing.T) {
		for _, text := range []string{"", "   ", "the of and", "!!! ---"} {
			if n := dot(embedOne(t, e, text), embedOne(t, e, text)); n != 0 {
				t.Errorf("%q: norm² = %g, want 0", text, n)
			}
		}
	})
	t.Run("Deterministic", func(t *testing.T) {
		vs, err := e.Embed(context.Background(), []string{"Kafka consumer lag alert", "other", "Kafka consumer lag alert"})
		if err != nil {
			t.Fatal(err)
		}
		again := embedOne(t, hashing.NewHashing(0), "Kafka consumer lag alert")
		for i := range again {
			if vs[0][i] != again[i] || vs[2][i] != again[i] {
				t.Fatalf("component %d differs between calls", i)
			}
		}
	})
	t.Run("SimilarCloserThanUnrelated", func(t *testing.T) {
		for _, tc := range []struct{ a, near, far string }{
			{"deploy the payments service to production", "production deployment of the payment service", "my cat likes warm milk"},
			{"GPU acceleration patterns for kernels", "gpu kernel acceleration", "quarterly tax filing deadline"},
			{"Caroline went to the LGBTQ support group", "When did Caroline go to the support group?", "Melanie painted a sunrise last year"},
			{"recieve the pakage", "receive the package", "send a letter"},
		} {
			a := embedOne(t, e, tc.a)
			near, far := dot(a, embedOne(t, e, tc.near)), dot(a, embedOne(t, e, tc.far))
			if near <= far {
				t.Errorf("%q: near %q = %.3f, far %q = %.3f", tc.a, tc.near, near, tc.far, far)
			}
		}
	})
}

func TestNone_Embed(t *testing.T) {
	_, err := hashing.None{}.Embed(context.Background(), []string{"x"})
	if got, want := recall.ErrorCode(err), recall.EUNAVAILABLE; got != want {
		t.Fatalf("code = %q, want %q", got, want)
	}
}

func FuzzFeatures(f *testing.F) {
	for _, s := range []string{"", "hello world", "user's café — naïve", "日本語", "\xff\xfe broken utf8", "a-b_c.d"} {
		f.Add(s)
	}
	e := hashing.NewHashing(64)
	f.Fuzz(func(t *testing.T, text string) {
		keys := hashing.Features(text, nil)
		again := hashing.Features(text, nil)
		if len(keys) != len(again) {
			t.Fatalf("features not deterministic: %d vs %d", len(keys), len(again))
		}
		v := embedOne(t, e, text)
		n := dot(v, v)
		if math.IsNaN(n) || (n != 0 && math.Abs(n-1) > 1e-4) {
			t.Fatalf("norm² = %g", n)
		}
		if len(keys) > 0 && n == 0 {
			t.Fatalf("%d features but a zero vector", len(keys))
		}
	})
}

func BenchmarkHashing_Embed(b *testing.B) {
	e := hashing.NewHashing(0)
	texts := make([]string, 100)
	for i := range texts {
		texts[i] = "The deployment pipeline for the payments service runs nightly and alerts the on-call engineer when consumer lag exceeds five minutes."
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "texts/s")
}
