package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/openai"
)

// fakeProvider answers /embeddings like an OpenAI-compatible server: each
// text becomes [len(text), 1, 0, ...] of dim dimensions, in reverse index
// order to prove the client sorts by index. fail(n) may replace the n-th
// request (from 1) with an error status.
type fakeProvider struct {
	dim      int
	requests atomic.Int64
	mu       sync.Mutex
	sizes    []int
	fail     func(n int64) int
	delay    time.Duration
	auth     atomic.Value
}

func (f *fakeProvider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := f.requests.Add(1)
	f.auth.Store(r.Header.Get("Authorization"))
	if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-r.Context().Done():
			return
		}
	}
	if f.fail != nil {
		if code := f.fail(n); code != 0 {
			w.WriteHeader(code)
			w.Write([]byte(`{"error": {"message": "model not found"}}`))
			return
		}
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "fake-embed" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.sizes = append(f.sizes, len(req.Input))
	f.mu.Unlock()
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	for i := len(req.Input) - 1; i >= 0; i-- {
		v := make([]float32, f.dim)
		v[0], v[1] = float32(len(req.Input[i])), 1
		data = append(data, item{Index: i, Embedding: v})
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
}

func newFake(t *testing.T, f *fakeProvider) *openai.Embedder {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	e := openai.New(srv.URL+"/v1/", "fake-embed", "sk-test")
	e.Backoff = time.Millisecond
	e.Timeout = 2 * time.Second
	return e
}

func TestEmbedder_Embed(t *testing.T) {
	ctx := context.Background()
	t.Run("BatchesAndOrders", func(t *testing.T) {
		f := &fakeProvider{dim: 8}
		e := newFake(t, f)
		e.BatchSize = 3
		texts := []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g"}
		vs, err := e.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := f.requests.Load(), int64(3); got != want {
			t.Fatalf("requests = %d, want %d", got, want)
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if got := f.sizes; len(got) != 3 || got[0] != 3 || got[1] != 3 || got[2] != 1 {
			t.Fatalf("batch sizes = %v", got)
		}
		for i, v := range vs {
			// [len, 1] normalised: the ratio gives the length back.
			if got := math.Round(float64(v[0] / v[1])); int(got) != len(texts[i]) {
				t.Fatalf("vector %d belongs to a text of length %v, want %d", i, got, len(texts[i]))
			}
			if n := float64(v[0]*v[0] + v[1]*v[1]); math.Abs(n-1) > 1e-5 {
				t.Fatalf("vector %d not normalised: %g", i, n)
			}
		}
		if got := f.auth.Load(); got != "Bearer sk-test" {
			t.Fatalf("Authorization = %q", got)
		}
		if e.Dim() != 8 {
			t.Fatalf("Dim() = %d, want 8 (learnt)", e.Dim())
		}
	})
	t.Run("DimProbe", func(t *testing.T) {
		f := &fakeProvider{dim: 5}
		e := newFake(t, f)
		if got := e.Dim(); got != 5 {
			t.Fatalf("Dim() = %d, want 5", got)
		}
	})
	t.Run("RetriesServerErrorsAnd429", func(t *testing.T) {
		f := &fakeProvider{dim: 4, fail: func(n int64) int {
			switch n {
			case 1:
				return http.StatusServiceUnavailable
			case 2:
				return http.StatusTooManyRequests
			}
			return 0
		}}
		e := newFake(t, f)
		if _, err := e.Embed(ctx, []string{"x"}); err != nil {
			t.Fatal(err)
		}
		if got := f.requests.Load(); got != 3 {
			t.Fatalf("requests = %d, want 3", got)
		}
	})
	t.Run("GivesUpAfterRetries", func(t *testing.T) {
		f := &fakeProvider{dim: 4, fail: func(int64) int { return http.StatusBadGateway }}
		e := newFake(t, f)
		e.MaxRetries = 2
		_, err := e.Embed(ctx, []string{"x"})
		if recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("err = %v", err)
		}
		if got := f.requests.Load(); got != 3 {
			t.Fatalf("requests = %d, want 3 (1 + 2 retries)", got)
		}
	})
	t.Run("ClientErrorNotRetried", func(t *testing.T) {
		f := &fakeProvider{dim: 4, fail: func(int64) int { return http.StatusNotFound }}
		e := newFake(t, f)
		_, err := e.Embed(ctx, []string{"x"})
		if recall.ErrorCode(err) != recall.EUNAVAILABLE || !strings.Contains(recall.ErrorMessage(err), "model not found") {
			t.Fatalf("err = %v", err)
		}
		if got := f.requests.Load(); got != 1 {
			t.Fatalf("requests = %d, want 1", got)
		}
	})
	t.Run("Timeout", func(t *testing.T) {
		f := &fakeProvider{dim: 4, delay: time.Second}
		e := newFake(t, f)
		e.Timeout = 20 * time.Millisecond
		e.MaxRetries = 1
		_, err := e.Embed(ctx, []string{"x"})
		if recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("err = %v", err)
		}
		if got := f.requests.Load(); got != 2 {
			t.Fatalf("requests = %d, want 2 (timeouts are retried)", got)
		}
	})
	t.Run("Unreachable", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		e := openai.New(url, "fake-embed", "")
		e.Backoff, e.MaxRetries = time.Millisecond, 1
		if _, err := e.Embed(ctx, []string{"x"}); recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("err = %v", err)
		}
		if e.Dim() != 0 || recall.ErrorCode(e.LastError()) != recall.EUNAVAILABLE {
			t.Fatalf("Dim() = %d, LastError() = %v for an unreachable provider", e.Dim(), e.LastError())
		}

	})
	t.Run("FailedProbeRemembered", func(t *testing.T) {
		f := &fakeProvider{dim: 4, fail: func(int64) int { return http.StatusBadGateway }}
		e := newFake(t, f)
		e.MaxRetries = 1
		for i := 0; i < 2; i++ {
			if e.Dim() != 0 {
				t.Fatal("Dim() of a failing provider must be 0")
			}
		}
		if got := f.requests.Load(); got != 2 {
			t.Fatalf("requests = %d, want 2 (one probe and its retry, then remembered)", got)
		}
	})
	t.Run("CallerCancelStopsRetries", func(t *testing.T) {
		f := &fakeProvider{dim: 4, fail: func(int64) int { return http.StatusInternalServerError }}
		e := newFake(t, f)
		e.Backoff = time.Hour
		ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if _, err := e.Embed(ctx, []string{"x"}); recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestEmbedder_CutShort: a request the caller's deadline cuts is no
// verdict on the provider (errors.Is says so, and a probe is not
// remembered as failed); a refusal seen before the deadline is one.
func TestEmbedder_CutShort(t *testing.T) {
	t.Run("SlowProvider", func(t *testing.T) {
		f := &fakeProvider{dim: 4, delay: 500 * time.Millisecond}
		e := newFake(t, f)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		_, err := e.Embed(ctx, []string{"x"})
		if recall.ErrorCode(err) != recall.EUNAVAILABLE || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v", err)
		}
		ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel2()
		if d := e.DimContext(ctx2); d != 0 || e.LastError() != nil {
			t.Fatalf("DimContext = %d, LastError = %v: a cut probe is no verdict", d, e.LastError())
		}
		if d := e.Dim(); d != 4 {
			t.Fatalf("Dim() = %d after a cut probe, want 4", d)
		}
	})
	t.Run("RefusedThenDeadline", func(t *testing.T) {
		f := &fakeProvider{dim: 4, fail: func(int64) int { return http.StatusInternalServerError }}
		e := newFake(t, f)
		e.Backoff = time.Hour
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := e.Embed(ctx, []string{"x"})
		if recall.ErrorCode(err) != recall.EUNAVAILABLE || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(recall.ErrorMessage(err), "HTTP 500") {
			t.Fatalf("err = %v", err)
		}
	})
}
