package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/recall-mem/recall/httpapi"
)

// TestServer_UI checks that a UI handler gets the paths outside /v1/ and
// /mcp while the API keeps its own routes and guards.
func TestServer_UI(t *testing.T) {
	ui := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ui "+r.URL.Path) })
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "mcp") })
	s := &httpapi.Server{Engine: openEngine(t), Loopback: true, Token: "tok", UI: ui, MCP: mcp}
	h := s.Handler()
	for _, tc := range []struct {
		path, auth string
		code       int
		body       string
	}{
		{"/", "", 200, "ui /"},
		{"/memories/x", "", 200, "ui /memories/x"},
		{"/v1/healthz", "", 401, ""},
		{"/v1/healthz", "Bearer tok", 200, ""},
		{"/mcp", "", 401, ""},
		{"/mcp", "Bearer tok", 200, "mcp"},
	} {
		r := httptest.NewRequest(http.MethodGet, "http://localhost"+tc.path, nil)
		if tc.auth != "" {
			r.Header.Set("Authorization", tc.auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.code || (tc.body != "" && w.Body.String() != tc.body) {
			t.Errorf("GET %s (%q): got %d %q, want %d %q", tc.path, tc.auth, w.Code, w.Body, tc.code, tc.body)
		}
	}
}
