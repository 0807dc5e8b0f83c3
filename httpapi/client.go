package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/recall-mem/recall"
)

// Client talks to a recall server. Its methods implement the root
// package's service interfaces, so a program can use a shared server
// exactly as it would use a store opened in-process.
type Client struct {
	// URL is the server's base URL, e.g. http://127.0.0.1:7077.
	URL string
	// Token is sent as "Authorization: Bearer TOKEN" when set.
	Token string
	// HTTPClient is used for requests; nil means http.DefaultClient.
	HTTPClient *http.Client
}

var (
	_ recall.MemoryService      = (*Client)(nil)
	_ recall.Searcher           = (*Client)(nil)
	_ recall.ContextBuilder     = (*Client)(nil)
	_ recall.ObservationService = (*Client)(nil)
)

// NewClient returns a client for the server at baseURL. It keeps enough
// idle connections for a few dozen concurrent callers: the default of two
// per host makes a busy client open a new connection for most requests.
func NewClient(baseURL, token string) *Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	return &Client{URL: strings.TrimSuffix(baseURL, "/"), Token: token, HTTPClient: &http.Client{Transport: tr}}
}

// do sends a request with an optional JSON body and decodes a JSON answer
// into out (when non-nil). A non-2xx answer becomes the domain error it
// carries; a transport failure becomes EUNAVAILABLE.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	u := c.URL + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode request: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return fmt.Errorf("new request: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return recall.Errorf(recall.EUNAVAILABLE, "Cannot reach the recall server at %s (%v): start it with `recall serve` or check the URL.", c.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return readError(resp)
	}
	if out == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil
	}
	if w, ok := out.(io.Writer); ok { // a stream (export): copied as it comes
		if _, err := io.Copy(w, resp.Body); err != nil {
			return fmt.Errorf("read %s %s response: %w", method, path, err)
		}
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("decode %s %s response: %w", method, path, err)
	}
	return nil
}

// memoryPath is the path of one memory; refs are ids or slugs, escaped
// anyway so that no input can change the route.
func memoryPath(ref string, rest ...string) string {
	return "/v1/memories/" + url.PathEscape(ref) + strings.Join(rest, "")
}

// PutMemory implements recall.MemoryService.
func (c *Client) PutMemory(ctx context.Context, m *recall.Memory) (*recall.PutResult, error) {
	var out putResult
	if err := c.do(ctx, http.MethodPost, "/v1/memories", nil, m, &out); err != nil {
		return nil, err
	}
	return &recall.PutResult{Memory: out.Memory, Created: out.Created}, nil
}

// FindMemory implements recall.MemoryService.
func (c *Client) FindMemory(ctx context.Context, ref, collection string) (*recall.Memory, error) {
	var q url.Values
	if collection != "" {
		q = url.Values{qCollection: {collection}}
	}
	var m recall.Memory
	if err := c.do(ctx, http.MethodGet, memoryPath(ref), q, nil, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// FindMemories implements recall.MemoryService.
func (c *Client) FindMemories(ctx context.Context, f recall.MemoryFilter) ([]*recall.Memory, int, error) {
	if f.IDs != nil && len(f.IDs) == 0 {
		return nil, 0, nil // an empty id list matches nothing, and a query string cannot say "empty"
	}
	q := url.Values{}
	encodeFilter(q, f)
	var out memoryList
	if err := c.do(ctx, http.MethodGet, "/v1/memories", q, nil, &out); err != nil {
		return nil, 0, err
	}
	return out.Memories, out.Total, nil
}

// UpdateMemory implements recall.MemoryService.
func (c *Client) UpdateMemory(ctx context.Context, id string, upd recall.MemoryUpdate) (*recall.Memory, error) {
	var m recall.Memory
	if err := c.do(ctx, http.MethodPatch, memoryPath(id), nil, patchFrom(upd), &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// DeleteMemory implements recall.MemoryService.
func (c *Client) DeleteMemory(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, memoryPath(id), nil, nil, nil)
}

// MemoryVersions implements recall.MemoryService.
func (c *Client) MemoryVersions(ctx context.Context, id string) ([]*recall.MemoryVersion, error) {
	var out versionList
	if err := c.do(ctx, http.MethodGet, memoryPath(id, "/versions"), nil, nil, &out); err != nil {
		return nil, err
	}
	return out.Versions, nil
}

// RestoreMemory implements recall.MemoryService.
func (c *Client) RestoreMemory(ctx context.Context, id string, n int) (*recall.Memory, error) {
	var m recall.Memory
	if err := c.do(ctx, http.MethodPost, memoryPath(id, "/restore"), nil, restoreBody{Version: n}, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// ImportMemories implements recall.MemoryService.
func (c *Client) ImportMemories(ctx context.Context, ms []*recall.Memory) (*recall.ImportResult, error) {
	var out recall.ImportResult
	if err := c.do(ctx, http.MethodPost, "/v1/import", nil, importBody{Memories: ms}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
