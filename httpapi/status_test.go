package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// statusServer is a loopback server over a real store, without a token.
func statusServer(t *testing.T) *httptest.Server {
	ts, _ := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true})
	return ts
}

// TestServer_MethodNotAllowed: a route's path with a method it does not
// take is 405 with Allow, not the 404 of a path that is no route.
func TestServer_MethodNotAllowed(t *testing.T) {
	ts := statusServer(t)
	for _, c := range []struct{ method, path, allow string }{
		{"DELETE", "/v1/memories", "GET, HEAD, POST"},
		{"PUT", "/v1/memories/tr0000000000", "GET, HEAD, PATCH, DELETE"},
		{"POST", "/v1/healthz", "GET, HEAD"},
		{"POST", "/v1/version", "GET, HEAD"},
	} {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: %d Allow %q, want 405 Allow %q", c.method, c.path, resp.StatusCode, resp.Header.Get("Allow"), c.allow)
		}
	}
	status, body := call(t, "GET", ts.URL+"/v1/nothing-here", "", nil)
	if status != http.StatusNotFound || errCode(body) != recall.ENOTFOUND {
		t.Errorf("no such path: %d %v, want 404", status, body)
	}
}

// TestServer_MessagesInAPITerms: an API client is told which route to
// call, not which CLI command to run.
func TestServer_MessagesInAPITerms(t *testing.T) {
	ts := statusServer(t)
	for _, path := range []string{"/v1/memories/tr0000000000", "/v1/memories/no-such-key", "/v1/memories/tr0000000000/versions"} {
		status, body := call(t, "GET", ts.URL+path, "", nil)
		msg, _ := body["error"].(map[string]any)["message"].(string)
		if status != http.StatusNotFound || strings.Contains(msg, "`recall ") || !strings.Contains(msg, "GET /v1/") {
			t.Errorf("GET %s: %d %q, want 404 naming a route and no CLI command", path, status, msg)
		}
	}
}

// TestServer_Version: GET /v1/version reports the build.
func TestServer_Version(t *testing.T) {
	ts := statusServer(t)
	status, body := call(t, "GET", ts.URL+"/v1/version", "", nil)
	if status != http.StatusOK || body["version"] == "" || !strings.HasPrefix(body["go"].(string), "go") {
		t.Errorf("GET /v1/version: %d %v", status, body)
	}
}
