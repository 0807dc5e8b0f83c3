// Package openai talks to OpenAI-compatible HTTP servers (OpenAI, Ollama,
// llama.cpp, vLLM): embeddings for vectors, chat completions for rollup
// summaries.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/recall-mem/recall"
)

// Defaults for the zero values of Embedder's knobs.
const (
	DefaultBatchSize  = 64
	DefaultTimeout    = 30 * time.Second
	DefaultMaxRetries = 4
	DefaultBackoff    = 500 * time.Millisecond
	maxBackoff        = 30 * time.Second
)

// Embedder is a recall.Embedder over an OpenAI-compatible endpoint. It is
// safe for concurrent use.
type Embedder struct {
	Endpoint   string // base URL, e.g. http://127.0.0.1:11434/v1
	ModelName  string // e.g. nomic-embed-text
	APIKey     string // sent as a bearer token when set
	Dimensions int    // asked of models that can shorten their vectors; 0: the model's own

	BatchSize  int           // texts per request; 0 means DefaultBatchSize
	Timeout    time.Duration // per request; 0 means DefaultTimeout
	MaxRetries int           // on 429, 5xx and network errors; 0 means DefaultMaxRetries, <0 none
	Backoff    time.Duration // first retry delay, doubled each time; 0 means DefaultBackoff
	Client     *http.Client  // nil means http.DefaultClient

	mu        sync.Mutex
	dim       int       // learnt from the first response when Dimensions is 0
	probeErr  error     // why the last dimension probe failed
	probeTime time.Time // when it failed: probes are not repeated for probeRetry
}

// probeRetry is how long a failed dimension probe is remembered, so that a
// provider that is down costs one probe, not one per search.
const probeRetry = 30 * time.Second

// probeTimeout bounds a dimension probe, retries included.
const probeTimeout = 5 * time.Second

var _ recall.Embedder = (*Embedder)(nil)

// New returns an Embedder for the endpoint and model.
func New(endpoint, model, apiKey string) *Embedder {
	return &Embedder{Endpoint: endpoint, ModelName: model, APIKey: apiKey}
}

// Model returns the model name.
func (e *Embedder) Model() string { return e.ModelName }

// Dim returns the vector dimension. When it is not configured it is learnt
// from the provider, asking it once if no embedding has been made yet; it
// returns 0 when the provider cannot be reached.
func (e *Embedder) Dim() int { return e.DimContext(context.Background()) }

// DimContext is Dim with a probe that also ends with ctx, for callers with
// a time budget of their own.
func (e *Embedder) DimContext(ctx context.Context) int {
	if e.Dimensions > 0 {
		return e.Dimensions
	}
	e.mu.Lock()
	d, failed := e.dim, e.probeErr != nil && time.Since(e.probeTime) < probeRetry
	e.mu.Unlock()
	if d > 0 || failed {
		return d
	}
	pctx, cancel := context.WithTimeout(ctx, min(e.timeout(), probeTimeout))
	defer cancel()
	vs, err := e.embedBatch(pctx, []string{"dimension probe"})
	if err == nil && len(vs) == 1 {
		return len(vs[0])
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		if ctx.Err() != nil {
			return 0 // the caller's budget cut the probe: no verdict on the provider
		}
	}
	e.mu.Lock()
	e.probeErr, e.probeTime = err, time.Now()
	e.mu.Unlock()
	return 0
}

// LastError says why the dimension is unknown: the error of the last
// failed probe, or nil.
func (e *Embedder) LastError() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dim > 0 {
		return nil
	}
	return e.probeErr
}

func (e *Embedder) timeout() time.Duration {
	if e.Timeout > 0 {
		return e.Timeout
	}
	return DefaultTimeout
}

// Embed returns one unit vector per text, in batches of BatchSize.
// Returns EUNAVAILABLE when the provider cannot be reached or refuses the
// request.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	size := e.BatchSize
	if size <= 0 {
		size = DefaultBatchSize
	}
	out := make([][]float32, 0, len(texts))
	for b := 0; b < len(texts); b += size {
		vs, err := e.embedBatch(ctx, texts[b:min(b+size, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

type request struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	Dimensions     int      `json:"dimensions,omitempty"`
	EncodingFormat string   `json:"encoding_format"`
}

type response struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// embedBatch sends one request, retrying with exponential backoff on
// 429, 5xx and network errors.
func (e *Embedder) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(request{Model: e.ModelName, Input: texts, Dimensions: e.Dimensions, EncodingFormat: "float"})
	if err != nil {
		return nil, fmt.Errorf("openai: encode request: %w", err)
	}
	retries := e.MaxRetries
	if retries == 0 {
		retries = DefaultMaxRetries
	}
	delay := e.Backoff
	if delay <= 0 {
		delay = DefaultBackoff
	}
	for attempt := 0; ; attempt++ {
		vs, wait, err := e.post(ctx, body, len(texts))
		if err == nil {
			return vs, nil
		}
		if ctx.Err() != nil {
			// The caller's deadline or cancellation cut the request: no
			// verdict on the provider, and errors.Is says so.
			return nil, fmt.Errorf("%w (%w)", e.unavailable(err), ctx.Err())
		}
		var perm *permanentError
		if errors.As(err, &perm) || attempt >= retries {
			return nil, e.unavailable(err)
		}
		if wait <= 0 {
			wait = delay
		}
		select {
		case <-ctx.Done():
			return nil, e.unavailable(err)
		case <-time.After(min(wait, maxBackoff)):
		}
		delay = min(delay*2, maxBackoff)
	}
}

// permanentError is a refusal that a retry would not change (4xx other
// than 429, or a malformed response).
type permanentError struct{ msg string }

func (p *permanentError) Error() string { return p.msg }

func (e *Embedder) unavailable(err error) error {
	return recall.Errorf(recall.EUNAVAILABLE, "The embedding provider at %s failed: %s. Check [retrieval] endpoint, model and api_key_env; memories stay queued until `recall reindex` succeeds.", e.Endpoint, err)
}

// post sends one request. It returns how long the server asked to wait
// (Retry-After) when it refused for load.
func (e *Embedder) post(ctx context.Context, body []byte, n int) ([][]float32, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout())
	defer cancel()
	resp, buf, err := post(ctx, e.Client, e.Endpoint, "/embeddings", e.APIKey, body, 256<<20)
	var bad *endpointError
	if errors.As(err, &bad) {
		return nil, 0, &permanentError{bad.Error()}
	}
	if err != nil {
		return nil, 0, err
	}
	if resp.StatusCode != http.StatusOK {
		msg := statusError(resp, buf)
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return nil, retryAfter(resp.Header.Get("Retry-After")), msg
		}
		return nil, 0, &permanentError{msg.Error()}
	}
	var r response
	if err := json.Unmarshal(buf, &r); err != nil {
		return nil, 0, &permanentError{fmt.Sprintf("malformed response: %v", err)}
	}
	vs, err := e.collect(r, n)
	if err != nil {
		return nil, 0, &permanentError{err.Error()}
	}
	return vs, 0, nil
}

// collect orders the vectors by index, checks them and normalises them
// (not every provider returns unit vectors).
func (e *Embedder) collect(r response, n int) ([][]float32, error) {
	if len(r.Data) != n {
		return nil, fmt.Errorf("got %d embeddings for %d texts", len(r.Data), n)
	}
	out := make([][]float32, n)
	dim := 0
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("bad or repeated embedding index %d", d.Index)
		}
		if dim == 0 {
			dim = len(d.Embedding)
		}
		if len(d.Embedding) == 0 || len(d.Embedding) != dim {
			return nil, fmt.Errorf("embeddings of different sizes (%d and %d)", dim, len(d.Embedding))
		}
		recall.Normalize(d.Embedding)
		out[d.Index] = d.Embedding
	}
	e.mu.Lock()
	e.dim, e.probeErr = dim, nil
	e.mu.Unlock()
	return out, nil
}
