package mcp

import (
	"bytes"
	"io"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStdioTransport_Drain: the calls read are pending until answered
// (notifications and cancelled calls never are), and the end of input
// is reported only once none is pending.
func TestStdioTransport_Drain(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"tools/call"}
{"jsonrpc":"2.0","method":"notifications/initialized"}
[{"jsonrpc":"2.0","id":"b","method":"tools/call"}]
{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b"}}
`
	var out bytes.Buffer
	tr := NewStdioTransport(strings.NewReader(in), &out).(*sdk.IOTransport)
	d := tr.Reader.(*drainReader)
	buf := make([]byte, 4096)
	if n, err := d.Read(buf); n != len(in) || err != nil {
		t.Fatalf("first read = %d, %v; want all %d bytes and no error", n, err, len(in))
	}
	if len(d.p.ids) != 1 || !d.p.ids["1"] {
		t.Fatalf("pending %v, want only call 1", d.p.ids)
	}
	answer := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"
	if _, err := tr.Writer.Write([]byte(answer)); err != nil {
		t.Fatal(err)
	}
	if out.String() != answer {
		t.Fatalf("written %q", out.String())
	}
	if n, err := d.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("read after the answer = %d, %v; want io.EOF", n, err)
	}
}
