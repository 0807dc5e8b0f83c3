package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// bodyRoutes are the routes that decode a JSON body (import has its own
// fuzz target). {id} is a memory the target creates.
var bodyRoutes = []struct{ method, path string }{
	{"POST", "/v1/memories"},
	{"PATCH", "/v1/memories/{id}"},
	{"POST", "/v1/memories/{id}/restore"},
	{"POST", "/v1/observations"},
	{"POST", "/v1/context"},
	{"POST", "/v1/sessions"},
	{"POST", "/v1/sessions/s1/end"},
	{"POST", "/v1/memories/{id}/snooze"},
	{"POST", "/v1/memories/{id}/pin"},
	{"POST", "/v1/sync"},
	{"POST", "/v1/maintain/apply"},
	{"POST", "/v1/rollups/run"},
	{"POST", "/v1/purge"},
	{"POST", "/v1/sweep"},
}

// FuzzRequestBody sends any body to every route that decodes one, against
// a real store: the answer is never a server error, always one JSON value,
// and an error body carries a code and a message.
func FuzzRequestBody(f *testing.F) {
	for _, s := range []string{`{"content":"x"}`, `{"title":"t","content":"c","tags":["a"],"anchors":[{"path":"a.go","hash":"00"}]}`,
		`{"content":"x","metadata":{"a":1}}`, `{"confidence":1e309}`, `{"content":"x"} {}`, `[]`, `null`, ``, `{"version":-1}`,
		`{"observations":[{"type":"command","content":"ls"}]}`, `{"budget":100,"query":"q"}`, `{"id":"s1"}`, `{"summary":"done"}`,
		`{"occurred_at":"2023-13-45T00:00:00Z","content":"x"}`, "{\"content\":\"\xff\"}",
		`{"days":-3}`, `{"dry_run":true,"confirm":true}`, `{"search":"","dry_run":true}`, `{"choices":[{"id":"","action":"pin"}]}`, `{"recommended":true}`} {
		for i := range bodyRoutes {
			f.Add(uint8(i), []byte(s))
		}
	}
	eng := openEngine(f)
	h := (&httpapi.Server{Engine: eng, Loopback: true}).Handler()
	res, err := eng.Put(context.Background(), &recall.Memory{Content: "target of PATCH and restore"})
	if err != nil {
		f.Fatal(err)
	}
	id := res.Memory.ID
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		rt := bodyRoutes[int(route)%len(bodyRoutes)]
		path := rt.path
		if i := bytes.Index([]byte(path), []byte("{id}")); i >= 0 {
			path = path[:i] + id + path[i+4:]
		}
		req := httptest.NewRequest(rt.method, "http://localhost"+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 && w.Code != http.StatusNotImplemented {
			t.Fatalf("%s %s %q: status %d: %s", rt.method, rt.path, body, w.Code, w.Body)
		}
		dec := json.NewDecoder(w.Body)
		var v any
		if err := dec.Decode(&v); err != nil || dec.More() {
			t.Fatalf("%s %s %q: answer is not one JSON value: %v", rt.method, rt.path, body, err)
		}
		if w.Code >= 400 {
			obj, _ := v.(map[string]any)
			e, _ := obj["error"].(map[string]any)
			code, _ := e["code"].(string)
			msg, _ := e["message"].(string)
			if code == "" || msg == "" {
				t.Fatalf("%s %s %q: error body %v", rt.method, rt.path, body, v)
			}
		}
	})
}
