package httpapi_test

import (
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// TestServer_InvalidUTF8: a body that is not UTF-8 is refused with 400;
// decoding it would turn the bytes into U+FFFD, and the stored text would
// differ from what was sent.
func TestServer_InvalidUTF8(t *testing.T) {
	ts, _ := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true})
	status, body := call(t, "POST", ts.URL+"/v1/memories", "{\"content\":\"caf\xe9 au lait\"}", nil)
	if status != 400 || errCode(body) != recall.EINVALID {
		t.Fatalf("status %d %v, want 400 invalid", status, body)
	}
	status, body = call(t, "GET", ts.URL+"/v1/memories", "", nil)
	if status != 200 {
		t.Fatalf("list: %d %v", status, body)
	}
	if ms, _ := body["memories"].([]any); len(ms) != 0 {
		t.Fatalf("a refused body was stored: %v", body)
	}
}
