package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// call sends a raw request and returns the status and decoded JSON body.
func call(t *testing.T, method, url, body string, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if len(b) > 0 {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s %s: body %q is not JSON: %v", method, url, b, err)
		}
	}
	return resp.StatusCode, out
}

// errCode returns error.code of an error body.
func errCode(body map[string]any) string {
	e, _ := body["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

func TestServer_Guards(t *testing.T) {
	ts, _ := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true, Token: "tok"})
	auth := "Bearer tok"
	cases := []struct {
		name   string
		method string
		path   string
		body   string
		header map[string]string
		status int
		code   string
	}{
		{"OK", "GET", "/v1/healthz", "", map[string]string{"Authorization": auth}, 200, ""},
		{"ErrNoToken", "GET", "/v1/healthz", "", nil, 401, recall.EUNAUTHORIZED},
		{"ErrWrongToken", "GET", "/v1/memories", "", map[string]string{"Authorization": "Bearer nope"}, 401, recall.EUNAUTHORIZED},
		{"ErrRebindingHost", "GET", "/v1/memories", "", map[string]string{"Authorization": auth, "Host": "evil.example:7077"}, 403, recall.EFORBIDDEN},
		{"LowercaseScheme", "GET", "/v1/memories", "", map[string]string{"Authorization": "bearer tok"}, 200, ""},
		{"ErrOtherScheme", "GET", "/v1/memories", "", map[string]string{"Authorization": "Basic tok"}, 401, recall.EUNAUTHORIZED},
		{"LocalhostHost", "GET", "/v1/memories", "", map[string]string{"Authorization": auth, "Host": "localhost:7077"}, 200, ""},
		{"ErrCrossSiteRead", "GET", "/v1/memories", "", map[string]string{"Authorization": auth, "Sec-Fetch-Site": "cross-site"}, 403, recall.EFORBIDDEN},
		{"ErrCrossOriginWrite", "POST", "/v1/memories", `{"content":"x"}`, map[string]string{"Authorization": auth, "Origin": "https://evil.example"}, 403, recall.EFORBIDDEN},
		{"SameOriginWrite", "POST", "/v1/memories", `{"content":"x"}`, map[string]string{"Authorization": auth, "Sec-Fetch-Site": "same-origin"}, 201, ""},
		{"ErrTooLarge", "POST", "/v1/memories", `{"content":"` + strings.Repeat("x", httpapi.DefaultMaxBodyBytes) + `"}`, map[string]string{"Authorization": auth}, 413, recall.ETOOLARGE},
		{"ErrMalformed", "POST", "/v1/memories", `{"content":`, map[string]string{"Authorization": auth}, 400, recall.EINVALID},
		{"ErrUnknownField", "POST", "/v1/memories", `{"contents":"x"}`, map[string]string{"Authorization": auth}, 400, recall.EINVALID},
		{"ErrTrailing", "POST", "/v1/memories", `{"content":"x"} {}`, map[string]string{"Authorization": auth}, 400, recall.EINVALID},
		{"ErrNoRoute", "GET", "/v2/things", "", map[string]string{"Authorization": auth}, 404, recall.ENOTFOUND},
		{"ErrBadFilter", "GET", "/v1/memories?filter=nofield", "", map[string]string{"Authorization": auth}, 400, recall.EINVALID},
		{"ErrBadLimit", "GET", "/v1/memories?limit=-1", "", map[string]string{"Authorization": auth}, 400, recall.EINVALID},
		{"ErrBadTime", "GET", "/v1/memories?since=yesterday", "", map[string]string{"Authorization": auth}, 400, recall.EINVALID},
		{"ErrNoQuery", "GET", "/v1/search", "", map[string]string{"Authorization": auth}, 400, recall.EINVALID},
		{"ErrNotFound", "GET", "/v1/memories/tr0000000000", "", map[string]string{"Authorization": auth}, 404, recall.ENOTFOUND},
		{"ErrPurgeUndecided", "POST", "/v1/purge", `{"project":"p"}`, map[string]string{"Authorization": auth}, 400, recall.EINVALID},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := call(t, c.method, ts.URL+c.path, c.body, c.header)
			if status != c.status || errCode(body) != c.code {
				t.Fatalf("got %d %v, want %d %q", status, body, c.status, c.code)
			}
			if c.code != "" {
				msg, _ := body["error"].(map[string]any)["message"].(string)
				if msg == "" {
					t.Fatal("error without a message")
				}
			}
		})
	}
}

func TestServer_Healthz(t *testing.T) {
	ts, _ := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true})
	status, body := call(t, "GET", ts.URL+"/v1/healthz", "", nil)
	if status != 200 || body["status"] != "ok" || body["unavailable"] != nil {
		t.Fatalf("got %d %v", status, body)
	}
}

// A server without an engine answers unavailable on every route but
// healthz, which says so.
func TestServer_NoEngine(t *testing.T) {
	ts, c := newServer(t, &httpapi.Server{Loopback: true})
	ctx := context.Background()
	for name, err := range map[string]error{
		"put":     func() error { _, err := c.PutMemory(ctx, &recall.Memory{Content: "x"}); return err }(),
		"list":    func() error { _, _, err := c.FindMemories(ctx, recall.MemoryFilter{}); return err }(),
		"search":  func() error { _, err := c.Search(ctx, recall.SearchQuery{Text: "x"}); return err }(),
		"record":  c.RecordObservations(ctx, []*recall.Observation{{Type: "note", Content: "x"}}),
		"context": func() error { _, err := c.BuildContext(ctx, recall.ContextRequest{Budget: 10}); return err }(),
	} {
		if recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Errorf("%s: got %v, want unavailable", name, err)
		}
	}
	status, body := call(t, "GET", ts.URL+"/v1/healthz", "", nil)
	if got, _ := json.Marshal(body["unavailable"]); status != 200 || string(got) != `["store"]` {
		t.Fatalf("healthz %d %v", status, body)
	}
}

func TestClient_ErrUnavailable(t *testing.T) {
	c := httpapi.NewClient("http://127.0.0.1:1", "")
	_, err := c.FindMemory(context.Background(), "k", "")
	if recall.ErrorCode(err) != recall.EUNAVAILABLE {
		t.Fatalf("got %v", err)
	}
}

// TestServer_MemoryRoutes checks the JSON shapes a non-Go caller sees and
// the ?collection= choice that the Go client never needs.
func TestServer_MemoryRoutes(t *testing.T) {
	ts, _ := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true})
	u := ts.URL + "/v1/memories"
	if status, body := call(t, "POST", u, `{"key":"k","content":"in default"}`, nil); status != 201 || body["created"] != true {
		t.Fatalf("put: %d %v", status, body)
	}
	if status, body := call(t, "POST", u, `{"key":"k","collection":"work","content":"in work","tags":["a"]}`, nil); status != 201 {
		t.Fatalf("put: %d %v", status, body)
	}
	if status, body := call(t, "POST", u, `{"key":"k","collection":"work","content":"in work, v2"}`, nil); status != 200 || body["created"] != false {
		t.Fatalf("new version: %d %v", status, body)
	}
	if status, body := call(t, "GET", u+"/k", "", nil); status != 409 || errCode(body) != recall.ECONFLICT {
		t.Fatalf("ambiguous key: %d %v", status, body)
	}
	if status, body := call(t, "PATCH", u+"/k?collection=work", `{"tags":["b"],"merge_tags":true}`, nil); status != 200 || body["collection"] != "work" || len(body["tags"].([]any)) != 2 {
		t.Fatalf("patch in collection: %d %v", status, body)
	}
	if status, body := call(t, "GET", u+"?collection=work&filter=tags=b", "", nil); status != 200 || body["total"] != float64(1) {
		t.Fatalf("list: %d %v", status, body)
	}
	if status, _ := call(t, "DELETE", u+"/k?collection=default", "", nil); status != 204 {
		t.Fatalf("delete in collection: %d", status)
	}
	status, body := call(t, "GET", u+"/k", "", nil)
	if status != 200 || body["collection"] != "work" {
		t.Fatalf("the other one is left: %d %v", status, body)
	}
	id := body["id"].(string)
	if status, body := call(t, "GET", u+"/"+id+"/versions", "", nil); status != 200 || len(body["versions"].([]any)) != 3 {
		t.Fatalf("versions: %d %v", status, body)
	}
	if status, body := call(t, "POST", u+"/"+id+"/restore", `{"version":1}`, nil); status != 200 || body["content"] != "in work" || body["version"] != float64(4) {
		t.Fatalf("restore: %d %v", status, body)
	}
	if status, body := call(t, "POST", ts.URL+"/v1/import", `{"memories":[{"id":"tr00000000aa","content":"imported"}]}`, nil); status != 200 || body["added"] != float64(1) {
		t.Fatalf("import: %d %v", status, body)
	}
	if status, body := call(t, "POST", ts.URL+"/v1/observations", `{"observations":[{"type":"note","content":"x"}]}`, nil); status != 201 || body["observations"].([]any)[0].(map[string]any)["id"] != float64(1) {
		t.Fatalf("record: %d %v", status, body)
	}
}
