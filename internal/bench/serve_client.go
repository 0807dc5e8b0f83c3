package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// serveClient asks a 'recall serve' the benchmark's searches. It shares
// the server's cores, so it does what a client must and no more:
//
//   - it checks every answer (status 200, one JSON object whose hits
//     each name a memory, at most the limit of them) without decoding
//     the memories into recall's types: httpapi.Client did, and building
//     values nobody read was a fifth of this process's CPU;
//   - each caller writes its request and reads the answer on a kept
//     connection itself (net/http's request and response code, not its
//     Transport: a Transport hands every request and answer between
//     goroutines, two more for each connection, which was a third of the
//     CPU, the scheduler's wake-ups included).
type serveClient struct {
	host string // host:port
	idle chan *serveConn
}

// serveConn is one kept connection and its reader.
type serveConn struct {
	c   net.Conn
	br  *bufio.Reader
	buf bytes.Buffer // the last answer's body
}

// newServeClient returns a client of the server at base (http://host:port)
// for conns concurrent callers; it keeps up to conns connections.
func newServeClient(base string, conns int) *serveClient {
	return &serveClient{host: strings.TrimPrefix(base, "http://"), idle: make(chan *serveConn, conns)}
}

// search asks text in mode for limit hits and checks the answer; it
// returns how many hits it held.
func (c *serveClient) search(ctx context.Context, text, mode string, limit int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	sc, err := c.conn()
	if err != nil {
		return 0, err
	}
	req := "GET /v1/search?" + url.Values{"q": {text}, "mode": {mode}, "limit": {strconv.Itoa(limit)}}.Encode() +
		" HTTP/1.1\r\nHost: " + c.host + "\r\nAccept: application/json\r\n\r\n"
	// A cancelled context ends a request under way: the connection's
	// deadline passes, and the connection is not kept.
	stop := func() bool { return true }
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, func() { _ = sc.c.SetDeadline(time.Unix(1, 0)) })
	}
	body, keep, status, err := sc.roundTrip(req)
	if !stop() {
		keep = false
		if err != nil {
			err = ctx.Err()
		}
	}
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("status %d: %s", status, bytes.TrimSpace(body))
	}
	n := 0
	if err == nil {
		n, err = checkHits(body, limit) // before another caller reuses the body's buffer
	}
	c.release(sc, keep)
	return n, err
}

// release keeps sc for the next request, or closes it when the server
// will not take another on it or enough are kept.
func (c *serveClient) release(sc *serveConn, keep bool) {
	if keep {
		select {
		case c.idle <- sc:
			return
		default:
		}
	}
	sc.c.Close()
}

// conn returns a kept connection, or a new one.
func (c *serveClient) conn() (*serveConn, error) {
	select {
	case sc := <-c.idle:
		return sc, nil
	default:
	}
	nc, err := net.Dial("tcp", c.host)
	if err != nil {
		return nil, err
	}
	return &serveConn{c: nc, br: bufio.NewReader(nc)}, nil
}

// roundTrip writes req and reads the whole answer; keep says whether the
// connection may carry another request. The body is valid until the next
// round trip on this connection.
func (sc *serveConn) roundTrip(req string) (body []byte, keep bool, status int, err error) {
	if _, err := io.WriteString(sc.c, req); err != nil {
		return nil, false, 0, err
	}
	resp, err := http.ReadResponse(sc.br, nil)
	if err != nil {
		return nil, false, 0, fmt.Errorf("read the answer: %w", err)
	}
	sc.buf.Reset()
	_, err = sc.buf.ReadFrom(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, false, 0, fmt.Errorf("read the answer: %w", err)
	}
	return sc.buf.Bytes(), !resp.Close, resp.StatusCode, nil
}
