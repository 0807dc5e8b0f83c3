package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// cancellingReader serves r and cancels the command's context once n
// bytes have been read, as a Ctrl-C in the middle of an import would.
type cancellingReader struct {
	r      io.Reader
	n      int
	cancel context.CancelFunc
}

func (c *cancellingReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		c.cancel()
	}
	if len(p) > c.n && c.n > 0 {
		p = p[:c.n]
	}
	k, err := c.r.Read(p)
	c.n -= k
	return k, err
}

// An interrupted import says so, exits 130 and keeps nothing: before, the
// cancelled statement surfaced as an internal error of one memory.
func TestExecute_InterruptedImport(t *testing.T) {
	store := t.TempDir()
	var lines strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&lines, "{\"content\":\"memory %d about deploys and caches\"}\n", i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := &cancellingReader{r: strings.NewReader(lines.String()), n: lines.Len() / 2, cancel: cancel}
	var out, errOut bytes.Buffer
	code := newApp(in, &out, &errOut).execute(ctx, []string{"--store", store, "import", "-"})
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitInterrupted, errOut.String())
	}
	if msg := errOut.String(); !strings.Contains(msg, "interrupted") || strings.Contains(msg, "nternal") {
		t.Errorf("stderr %q: want the interruption named, not an internal error", msg)
	}

	out.Reset()
	errOut.Reset()
	if code := newApp(strings.NewReader(""), &out, &errOut).execute(context.Background(), []string{"--store", store, "list", "--json"}); code != exitOK {
		t.Fatalf("list: exit %d: %s", code, errOut.String())
	}
	if got := strings.TrimSpace(out.String()); got != "[]" {
		t.Errorf("the interrupted import kept memories: %.200s", got)
	}
}
