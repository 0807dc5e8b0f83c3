package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
)

// serveClient asks a 'recall serve' the benchmark's searches. It shares
// the server's cores, so it does what a client must and no more: it
// checks every answer (status 200, a JSON object whose hits each name a
// memory, at most the limit of them) without decoding the memories into
// recall's types (httpapi.Client did: a third of this process's CPU a
// request went to building values nobody read).
type serveClient struct {
	base string
	hc   *http.Client
	bufs sync.Pool // *bytes.Buffer: a response body
}

// newServeClient returns a client of the server at base for conns
// concurrent callers: each keeps its connection between requests (the
// default transport keeps two idle a host).
func newServeClient(base string, conns int) *serveClient {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = max(conns, t.MaxIdleConns), conns
	return &serveClient{base: base, hc: &http.Client{Transport: t},
		bufs: sync.Pool{New: func() any { return new(bytes.Buffer) }}}
}

// servedHits is what serveClient reads of an answer: each hit's memory
// id, and that hits is there (an answer without it is not one).
type servedHits struct {
	Hits *[]struct {
		Memory *struct {
			ID string `json:"id"`
		} `json:"memory"`
	} `json:"hits"`
}

// search asks text in mode for limit hits and checks the answer; it
// returns how many hits it held.
func (c *serveClient) search(ctx context.Context, text, mode string, limit int) (int, error) {
	u := c.base + "/v1/search?" + url.Values{"q": {text}, "mode": {mode}, "limit": {strconv.Itoa(limit)}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	buf := c.bufs.Get().(*bytes.Buffer)
	defer c.bufs.Put(buf)
	buf.Reset()
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return 0, fmt.Errorf("read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("status %d: %s", resp.StatusCode, bytes.TrimSpace(buf.Bytes()))
	}
	return checkHits(buf.Bytes(), limit)
}

// checkHits checks an answer's body: one JSON object with a list of hits,
// at most limit, each with a memory that has an id.
func checkHits(body []byte, limit int) (int, error) {
	var a servedHits
	d := json.NewDecoder(bytes.NewReader(body))
	if err := d.Decode(&a); err != nil {
		return 0, fmt.Errorf("decode the answer: %w", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return 0, fmt.Errorf("the answer has more after its object")
	}
	if a.Hits == nil {
		return 0, fmt.Errorf("the answer has no hits list: %.200s", body)
	}
	hits := *a.Hits
	if len(hits) > limit {
		return 0, fmt.Errorf("%d hits, asked for %d", len(hits), limit)
	}
	for i, h := range hits {
		if h.Memory == nil || h.Memory.ID == "" {
			return 0, fmt.Errorf("hit %d has no memory id: %.200s", i, body)
		}
	}
	return len(hits), nil
}
