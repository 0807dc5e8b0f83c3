package bench

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
)

// serveClient asks a 'recall serve' the benchmark's searches. It shares
// the server's cores, so it does what a client must and no more: it
// checks every answer (status 200, one JSON value, an object whose hits
// each name a memory, at most the limit of them: checkHits) without
// decoding the memories into recall's types (httpapi.Client did: a quarter
// of this process's CPU went to building values nobody read), and the
// callers never hold more connections than there are of them.
type serveClient struct {
	base string
	hc   *http.Client
	bufs sync.Pool // *bytes.Buffer: a response body
}

// newServeClient returns a client of the server at base for conns
// concurrent callers. MaxConnsPerHost bounds the connections as well as
// the idle ones: without it the transport dials for a request that finds
// none idle, the request takes another caller's freed connection
// meanwhile, and the dialled one is parked and, past the idle limit,
// closed, so connections churn under load.
func newServeClient(base string, conns int) *serveClient {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = max(conns, t.MaxIdleConns), conns
	t.MaxConnsPerHost = conns
	return &serveClient{base: base, hc: &http.Client{Transport: t},
		bufs: sync.Pool{New: func() any { return new(bytes.Buffer) }}}
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
