package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// What every request to an OpenAI-compatible server shares: the URL under
// the configured base, JSON in and out, the bearer key, and the shape of
// its error answers.

// endpointError is a base URL that makes no request: no retry helps.
type endpointError struct {
	endpoint string
	err      error
}

func (e *endpointError) Error() string { return fmt.Sprintf("bad endpoint %q: %v", e.endpoint, e.err) }

// post sends body as JSON to endpoint+path, with apiKey as a bearer token
// when set, through hc (nil: http.DefaultClient). It returns the response,
// whose body is already read (at most limit bytes) and closed, and that
// body; an error means no answer was read.
func post(ctx context.Context, hc *http.Client, endpoint, path, apiKey string, body []byte, limit int64) (*http.Response, []byte, error) {
	url := strings.TrimRight(endpoint, "/") + path
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, &endpointError{endpoint, err}
	}
	req.Header.Set("Content-Type", "application/json")
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	buf, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil {
		return nil, nil, err
	}
	return resp, buf, nil
}

// statusError describes an answer other than 200 OK by its status and the
// server's own message.
func statusError(resp *http.Response, buf []byte) error {
	return fmt.Errorf("HTTP %d: %s", resp.StatusCode, errorText(buf))
}

// errorText extracts {"error": {"message": ...}} or a short prefix of the body.
func errorText(buf []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(buf, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return s
		}
	}
	s := strings.TrimSpace(string(buf))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		return "no details"
	}
	return s
}

// retryAfter parses a Retry-After header given in seconds.
func retryAfter(h string) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 0
}
