package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout caps how long the stdio server waits, after its input
// ends, for the answers to requests still being handled.
const drainTimeout = time.Minute

// NewStdioTransport returns newline-delimited JSON-RPC over r and w that
// answers every request read before the input ends. The SDK's transport
// closes the connection at end of input, dropping the requests still in
// flight, so `printf … | recall mcp` would answer nothing and lose a
// write; here the end of input is held back until each request read has
// its response written (or was cancelled), or drainTimeout passes.
func NewStdioTransport(r io.Reader, w io.Writer) sdk.Transport {
	p := &pending{ids: map[string]bool{}, closed: make(chan struct{})}
	p.cond = sync.NewCond(&p.mu)
	return &sdk.IOTransport{Reader: &drainReader{r: r, p: p}, Writer: &answerWriter{w: w, p: p}}
}

// pending is the set of request ids read and not yet answered.
type pending struct {
	mu        sync.Mutex
	cond      *sync.Cond
	ids       map[string]bool
	closed    chan struct{}
	closeOnce sync.Once
}

// wire is the part of a JSON-RPC message that says what it is.
type wire struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// messages decodes one line: a message or a batch of them. Lines that are
// not JSON-RPC yield nothing (the server answers those itself, or stops).
func messages(line []byte) []wire {
	line = bytes.TrimSpace(line)
	if len(line) > 0 && line[0] == '[' {
		var batch []wire
		_ = json.Unmarshal(line, &batch)
		return batch
	}
	var m wire
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return []wire{m}
}

func hasID(id json.RawMessage) bool { return len(id) > 0 && string(id) != "null" }

// read records the calls on an incoming line, and forgets a call that
// the client cancelled, since it gets no answer.
func (p *pending) read(line []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range messages(line) {
		switch {
		case m.Method == "notifications/cancelled" && hasID(m.Params.RequestID):
			delete(p.ids, string(m.Params.RequestID))
		case m.Method != "" && hasID(m.ID):
			p.ids[string(m.ID)] = true
		}
	}
	p.cond.Broadcast()
}

// wrote forgets the calls answered by an outgoing message.
func (p *pending) wrote(msg []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range messages(msg) {
		if m.Method == "" && hasID(m.ID) {
			delete(p.ids, string(m.ID))
		}
	}
	p.cond.Broadcast()
}

// drain waits until every call read has been answered, the transport is
// closed, or drainTimeout passes.
func (p *pending) drain() {
	stop := time.AfterFunc(drainTimeout, p.close)
	defer stop.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.ids) > 0 && !p.isClosed() {
		p.cond.Wait()
	}
}

func (p *pending) close() {
	p.closeOnce.Do(func() {
		close(p.closed)
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
	})
}

func (p *pending) isClosed() bool {
	select {
	case <-p.closed:
		return true
	default:
		return false
	}
}

// drainReader passes input through, noting each line's calls, and holds
// back the end of input until they are answered.
type drainReader struct {
	r    io.Reader
	p    *pending
	line []byte // the unfinished last line
}

func (d *drainReader) Read(b []byte) (int, error) {
	n, err := d.r.Read(b)
	d.line = append(d.line, b[:n]...)
	for {
		i := bytes.IndexByte(d.line, '\n')
		if i < 0 {
			break
		}
		d.p.read(d.line[:i])
		d.line = d.line[i+1:]
	}
	if err == io.EOF {
		if len(d.line) > 0 {
			d.p.read(d.line)
			d.line = nil
		}
		if n > 0 {
			return n, nil // deliver the data first; EOF comes on the next read
		}
		d.p.drain()
	}
	return n, err
}

// Close ends a drain in progress: the connection is going away.
func (d *drainReader) Close() error {
	d.p.close()
	return nil
}

// answerWriter passes output through and notes the answers written. It
// never closes the underlying writer (the process's stdout).
type answerWriter struct {
	w io.Writer
	p *pending
}

func (a *answerWriter) Write(b []byte) (int, error) {
	n, err := a.w.Write(b)
	a.p.wrote(b)
	return n, err
}

func (a *answerWriter) Close() error { return nil }
