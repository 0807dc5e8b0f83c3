package httpapi_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/errors"

	"github.com/recall-mem/recall/httpapi"
)

var updateOpenAPI = flag.Bool("update-openapi", false, "rewrite docs/openapi.json from the server's document")

// openAPIValidator parses doc with libopenapi and checks it against the
// OpenAPI 3.1 schema.
func openAPIValidator(t *testing.T, doc []byte) validator.Validator {
	t.Helper()
	parsed, err := libopenapi.NewDocument(doc)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if v := parsed.GetVersion(); v != "3.1.0" {
		t.Fatalf("openapi version %q, want 3.1.0", v)
	}
	if _, err := parsed.BuildV3Model(); err != nil {
		t.Fatalf("build model: %v", err)
	}
	v, errs := validator.NewValidator(parsed)
	if len(errs) > 0 {
		t.Fatalf("validator: %v", errs)
	}
	if ok, errs := v.ValidateDocument(); !ok {
		t.Fatalf("the document is not valid OpenAPI 3.1:%s", describe(errs))
	}
	return v
}

// documentedPatterns lists "METHOD /path" for every operation of doc.
func documentedPatterns(t *testing.T, doc []byte) []string {
	t.Helper()
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	var out []string
	for path, item := range d.Paths {
		for method := range item {
			out = append(out, strings.ToUpper(method)+" "+path)
		}
	}
	sort.Strings(out)
	return out
}

func TestOpenAPI_ValidDocument(t *testing.T) {
	ts, _ := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true})
	status, served := get(t, ts.URL+"/v1/openapi.json")
	if status != http.StatusOK || !bytes.Equal(served, httpapi.OpenAPI()) {
		t.Fatalf("GET /v1/openapi.json: %d, %d bytes; want 200 and the document", status, len(served))
	}
	openAPIValidator(t, served)

	// docs/openapi.json is the same document, for people who generate a
	// client without running a server.
	const golden = "../docs/openapi.json"
	if *updateOpenAPI {
		if err := os.WriteFile(golden, served, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil || !bytes.Equal(want, served) {
		t.Fatalf("%s differs from the served document (%v): run go test ./httpapi -run TestOpenAPI_ValidDocument -update-openapi", golden, err)
	}
}

func TestOpenAPI_EveryRouteDocumented(t *testing.T) {
	registered := httpapi.RegisteredPatterns(&httpapi.Server{Engine: openEngine(t)})
	sort.Strings(registered)
	documented := documentedPatterns(t, httpapi.OpenAPI())
	for _, p := range registered {
		if !slices.Contains(documented, p) {
			t.Errorf("route %q is served but not in the OpenAPI document (add it to apiRoutes)", p)
		}
	}
	for _, p := range documented {
		if !slices.Contains(registered, p) {
			t.Errorf("route %q is documented but not served", p)
		}
	}
}

func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// exchange is one request to a live server whose request and response
// are checked against the document.
type exchange struct {
	pattern      string // the documented route it exercises
	method, path string
	body         string
	status       int  // expected
	badRequest   bool // the request breaks the document on purpose; only the response is checked
	noToken      bool
	host         string // a Host header other than the server's
}

// liveAPI is a running server whose exchanges are checked against the
// document.
type liveAPI struct {
	url, token string
	v          validator.Validator
}

// do sends ex and validates both sides; it returns the decoded body.
func (api liveAPI) do(t *testing.T, ex exchange) map[string]any {
	t.Helper()
	build := func() *http.Request {
		var body io.Reader
		if ex.body != "" {
			body = strings.NewReader(ex.body)
		}
		req := httptest.NewRequest(ex.method, api.url+ex.path, body)
		req.RequestURI = ""
		if ex.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if ex.host != "" {
			req.Host = ex.host
		}
		if !ex.noToken && api.token != "" {
			req.Header.Set("Authorization", "Bearer "+api.token)
		}
		return req
	}
	resp, err := http.DefaultClient.Do(build())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != ex.status {
		t.Fatalf("%s %s: status %d, want %d: %s", ex.method, ex.path, resp.StatusCode, ex.status, raw)
	}
	if !ex.badRequest {
		if ok, errs := api.v.ValidateHttpRequest(build()); !ok {
			t.Errorf("%s %s: request does not match the document:%s", ex.method, ex.path, describe(errs))
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	if ok, errs := api.v.ValidateHttpResponse(build(), resp); !ok {
		t.Errorf("%s %s -> %d %s: response does not match the document:%s", ex.method, ex.path, resp.StatusCode, raw, describe(errs))
	}
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return out
}

func TestOpenAPI_RealExchangesValidate(t *testing.T) {
	const token = "tok"
	srv := &httpapi.Server{Engine: openEngine(t), Loopback: true, Token: token}
	ts, _ := newServer(t, srv)
	api := liveAPI{url: ts.URL, token: token, v: openAPIValidator(t, httpapi.OpenAPI())}
	do := api.do

	put := do(t, exchange{pattern: "POST /v1/memories", method: "POST", path: "/v1/memories", status: 201,
		body: `{"key":"deploy-day","title":"Deploys","content":"Deploys run on Fridays.","tags":["ops"],"anchors":[{"path":"deploy.sh","hash":"ab"}],"metadata":{"source":"test"}}`})
	id := put["memory"].(map[string]any)["id"].(string)
	sess := do(t, exchange{pattern: "POST /v1/sessions", method: "POST", path: "/v1/sessions", status: 201, body: `{"project":"recall","agent":"test"}`})
	sessID := sess["session"].(map[string]any)["id"].(string)
	// One memory per maintenance action, so that each action applies.
	actionIDs := map[string]string{}
	for _, a := range []string{"pin", "unpin", "snooze", "demote", "archive", "supersede", "review"} {
		m := do(t, exchange{pattern: "POST /v1/memories", method: "POST", path: "/v1/memories", status: 201,
			body: `{"key":"act-` + a + `","tier":"working","content":"The ` + a + ` action acts on this memory."}`})
		actionIDs[a] = m["memory"].(map[string]any)["id"].(string)
	}

	exchanges := []exchange{
		{pattern: "POST /v1/memories", method: "POST", path: "/v1/memories", status: 200, body: `{"key":"deploy-day","content":"Deploys run on Thursdays."}`},
		{pattern: "POST /v1/memories", method: "POST", path: "/v1/memories", status: 400, body: `{"content":"x","bogus":1}`, badRequest: true},
		{pattern: "GET /v1/memories", method: "GET", path: "/v1/memories?collection=default&pinned=false&filter=tags=ops&filter=tags=api&since=2020-01-01T00:00:00Z&limit=10&offset=0", status: 200},
		{pattern: "GET /v1/memories", method: "GET", path: "/v1/memories?pinned=maybe", status: 400, badRequest: true},
		{pattern: "GET /v1/memories/{id}", method: "GET", path: "/v1/memories/" + id, status: 200},
		{pattern: "GET /v1/memories/{id}", method: "GET", path: "/v1/memories/deploy-day?collection=default", status: 200},
		{pattern: "GET /v1/memories/{id}", method: "GET", path: "/v1/memories/no-such-key", status: 404},
		{pattern: "PATCH /v1/memories/{id}", method: "PATCH", path: "/v1/memories/" + id, status: 200, body: `{"pinned":true,"tags":["ops","ci"],"snoozed_until":"2030-01-01T00:00:00Z"}`},
		{pattern: "PATCH /v1/memories/{id}", method: "PATCH", path: "/v1/memories/no-such-key", status: 404, body: `{"title":"x"}`},
		{pattern: "GET /v1/memories/{id}/versions", method: "GET", path: "/v1/memories/" + id + "/versions", status: 200},
		{pattern: "GET /v1/memories/{id}/versions", method: "GET", path: "/v1/memories/no-such-key/versions", status: 404},
		{pattern: "POST /v1/memories/{id}/restore", method: "POST", path: "/v1/memories/" + id + "/restore", status: 200, body: `{"version":1}`},
		{pattern: "POST /v1/memories/{id}/restore", method: "POST", path: "/v1/memories/" + id + "/restore", status: 404, body: `{"version":99}`},
		{pattern: "POST /v1/import", method: "POST", path: "/v1/import", status: 200, body: `{"memories":[{"title":"CI","content":"CI runs on every push.","type":"fact"}]}`},
		{pattern: "POST /v1/import", method: "POST", path: "/v1/import", status: 400, body: `{"memories":"none"}`, badRequest: true},
		{pattern: "GET /v1/search", method: "GET", path: "/v1/search?q=deploys&explain=true&limit=5&filter=tags=ops", status: 200},
		{pattern: "GET /v1/search", method: "GET", path: "/v1/search", status: 400, badRequest: true},
		{pattern: "POST /v1/context", method: "POST", path: "/v1/context", status: 200, body: `{"query":"deploys","budget":500,"filter":{"collection":"default"}}`},
		{pattern: "POST /v1/context", method: "POST", path: "/v1/context", status: 400, body: `{"budget":"lots"}`, badRequest: true},
		{pattern: "POST /v1/observations", method: "POST", path: "/v1/observations", status: 201, body: `{"observations":[{"type":"tool","content":"ran go test","at":"2026-01-02T15:04:05Z","session":"` + sessID + `","metadata":{"exit":0}}]}`},
		{pattern: "POST /v1/observations", method: "POST", path: "/v1/observations", status: 400, body: `[]`, badRequest: true},
		{pattern: "GET /v1/observations", method: "GET", path: "/v1/observations?type=tool&desc=true&limit=5", status: 200},
		{pattern: "GET /v1/observations", method: "GET", path: "/v1/observations?id=abc", status: 400, badRequest: true},
		{pattern: "POST /v1/sessions", method: "POST", path: "/v1/sessions", status: 201, body: `{"agent":"test"}`},
		{pattern: "POST /v1/sessions", method: "POST", path: "/v1/sessions", status: 400, body: `{"agent":"test","mood":"good"}`, badRequest: true},
		{pattern: "GET /v1/sessions", method: "GET", path: "/v1/sessions?limit=5", status: 200},
		{pattern: "GET /v1/sessions", method: "GET", path: "/v1/sessions?limit=-1", status: 400, badRequest: true},
		{pattern: "POST /v1/sessions/{id}/end", method: "POST", path: "/v1/sessions/" + sessID + "/end", status: 200, body: `{"summary":"Fixed the deploy day.","learned":"Deploys moved."}`},
		{pattern: "POST /v1/sessions/{id}/end", method: "POST", path: "/v1/sessions/no-such-session/end", status: 400, body: `{"summary":"x","mood":"good"}`, badRequest: true},
		{pattern: "POST /v1/sessions/end", method: "POST", path: "/v1/sessions/end", status: 200, body: `{"summary":"Ended without an id."}`},
		{pattern: "POST /v1/sessions/end", method: "POST", path: "/v1/sessions/end", status: 400, body: `{"summary":"x","mood":"good"}`, badRequest: true},
		{pattern: "GET /v1/maintain/plan", method: "GET", path: "/v1/maintain/plan", status: 200},
		{pattern: "GET /v1/memories/{id}/diff", method: "GET", path: "/v1/memories/" + id + "/diff?from=1&to=2", status: 200},
		{pattern: "GET /v1/memories/{id}/diff", method: "GET", path: "/v1/memories/deploy-day/diff", status: 200},
		{pattern: "GET /v1/memories/{id}/diff", method: "GET", path: "/v1/memories/" + id + "/diff?from=0", status: 400, badRequest: true},
		{pattern: "GET /v1/memories/{id}/diff", method: "GET", path: "/v1/memories/" + id + "/diff?from=1&to=99", status: 404},
		{pattern: "POST /v1/memories/{id}/pin", method: "POST", path: "/v1/memories/" + actionIDs["pin"] + "/pin", status: 200},
		{pattern: "POST /v1/memories/{id}/unpin", method: "POST", path: "/v1/memories/" + actionIDs["unpin"] + "/unpin", status: 200, body: `{}`},
		{pattern: "POST /v1/memories/{id}/snooze", method: "POST", path: "/v1/memories/act-snooze/snooze", status: 200, body: `{"days":7,"now":"2026-01-02T15:04:05Z"}`},
		{pattern: "POST /v1/memories/{id}/snooze", method: "POST", path: "/v1/memories/act-snooze/snooze", status: 400, body: `{"days":-1}`},
		{pattern: "POST /v1/memories/{id}/demote", method: "POST", path: "/v1/memories/" + actionIDs["demote"] + "/demote", status: 200},
		{pattern: "POST /v1/memories/{id}/archive", method: "POST", path: "/v1/memories/" + actionIDs["archive"] + "/archive", status: 200},
		{pattern: "POST /v1/memories/{id}/supersede", method: "POST", path: "/v1/memories/" + actionIDs["supersede"] + "/supersede", status: 200},
		{pattern: "POST /v1/memories/{id}/review", method: "POST", path: "/v1/memories/" + actionIDs["review"] + "/review", status: 200},
		{pattern: "GET /v1/sync/plan", method: "GET", path: "/v1/sync/plan", status: 200},
		{pattern: "GET /v1/sync/plan", method: "GET", path: "/v1/sync/plan?now=yesterday", status: 400, badRequest: true},
		{pattern: "POST /v1/sync", method: "POST", path: "/v1/sync", status: 200, body: `{"now":"2026-01-02T15:04:05Z"}`},
		{pattern: "POST /v1/sync", method: "POST", path: "/v1/sync", status: 400, body: `{"bogus":1}`, badRequest: true},
		{pattern: "POST /v1/maintain/apply", method: "POST", path: "/v1/maintain/apply", status: 200, body: `{"recommended":true}`},
		{pattern: "POST /v1/maintain/apply", method: "POST", path: "/v1/maintain/apply", status: 400, body: `{"choices":[{"id":"` + id + `","action":"explode"}]}`},
		{pattern: "POST /v1/rollups/run", method: "POST", path: "/v1/rollups/run", status: 200, body: `{"dry_run":true}`},
		{pattern: "POST /v1/rollups/run", method: "POST", path: "/v1/rollups/run", status: 400, body: `{"now":"soon"}`, badRequest: true},
		{pattern: "GET /v1/tiers", method: "GET", path: "/v1/tiers", status: 200},
		{pattern: "POST /v1/purge", method: "POST", path: "/v1/purge", status: 200, body: `{"search":"go test","dry_run":true,"sample":3}`},
		{pattern: "POST /v1/purge", method: "POST", path: "/v1/purge", status: 200, body: `{"project":"no-such-project","memories":true,"confirm":true}`},
		{pattern: "POST /v1/purge", method: "POST", path: "/v1/purge", status: 400, body: `{"project":"p","dry_run":true,"confirm":true}`},
		{pattern: "POST /v1/sweep", method: "POST", path: "/v1/sweep", status: 200, body: `{"dry_run":true}`},
		{pattern: "POST /v1/sweep", method: "POST", path: "/v1/sweep", status: 400, body: `{"dry_run":"yes"}`, badRequest: true},
		{pattern: "GET /v1/stats", method: "GET", path: "/v1/stats", status: 200},
		{pattern: "GET /v1/stats", method: "GET", path: "/v1/stats?now=later", status: 400, badRequest: true},
		{pattern: "GET /v1/reindex/status", method: "GET", path: "/v1/reindex/status", status: 200},
		{pattern: "GET /v1/doctor", method: "GET", path: "/v1/doctor", status: 200},
		{pattern: "GET /v1/export", method: "GET", path: "/v1/export?filter=tags=ops", status: 200},
		{pattern: "GET /v1/export", method: "GET", path: "/v1/export?pinned=maybe", status: 400, badRequest: true},
		{pattern: "POST /v1/backup", method: "POST", path: "/v1/backup", status: 201},
		{pattern: "GET /v1/healthz", method: "GET", path: "/v1/healthz", status: 200},
		{pattern: "GET /v1/openapi.json", method: "GET", path: "/v1/openapi.json", status: 200},
		{pattern: "GET /v1/version", method: "GET", path: "/v1/version", status: 200},
		{pattern: "DELETE /v1/memories/{id}", method: "DELETE", path: "/v1/memories/" + id, status: 204},
		{pattern: "DELETE /v1/memories/{id}", method: "DELETE", path: "/v1/memories/" + id, status: 404},
	}
	for _, a := range []string{"pin", "unpin", "demote", "archive", "supersede", "review"} {
		exchanges = append(exchanges, exchange{pattern: "POST /v1/memories/{id}/" + a, method: "POST", path: "/v1/memories/no-such-key/" + a, status: 404})
	}
	// Every route also refuses a request without the token, with the
	// documented error body.
	for _, p := range httpapi.RegisteredPatterns(srv) {
		method, path, _ := strings.Cut(p, " ")
		path = strings.ReplaceAll(path, "{id}", "x")
		ex := exchange{pattern: p, method: method, path: path, status: 401, noToken: true, badRequest: true}
		if method == "POST" || method == "PATCH" {
			ex.body = "{}"
		}
		exchanges = append(exchanges, ex)
	}

	// Errors that do not depend on the route: a body over the server's cap,
	// and a service this server lacks.
	small, _ := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true, MaxBodyBytes: 64})
	storeless, _ := newServer(t, &httpapi.Server{Loopback: true})
	t.Run("TooLarge", func(t *testing.T) {
		liveAPI{url: small.URL, v: api.v}.do(t, exchange{method: "POST", path: "/v1/memories", status: 413,
			body: `{"content":"` + strings.Repeat("x", 100) + `"}`})
	})
	t.Run("ForbiddenHost", func(t *testing.T) {
		do(t, exchange{method: "GET", path: "/v1/memories", status: 403, badRequest: true, host: "evil.example"})
	})
	for _, ex := range []exchange{
		{method: "GET", path: "/v1/search?q=x", status: 503},
		{method: "POST", path: "/v1/context", status: 503, body: `{"budget":10}`},
		{method: "GET", path: "/v1/stats", status: 503},
		{method: "POST", path: "/v1/backup", status: 503},
	} {
		t.Run("NoStore"+strings.ReplaceAll(ex.path, "/", "_"), func(t *testing.T) {
			liveAPI{url: storeless.URL, v: api.v}.do(t, ex)
		})
	}

	ok, failed := map[string]bool{}, map[string]bool{}
	for _, ex := range exchanges {
		t.Run(fmt.Sprintf("%s_%d", strings.ReplaceAll(ex.method+ex.path, "/", "_"), ex.status), func(t *testing.T) {
			do(t, ex)
		})
		if ex.status < 300 {
			ok[ex.pattern] = true
		} else if ex.status != 401 {
			failed[ex.pattern] = true
		}
	}
	// The table above must keep up with the routes: each one answers at
	// least once with success, and each one that takes input once with an
	// error of its own.
	inputless := map[string]bool{"GET /v1/healthz": true, "GET /v1/openapi.json": true, "GET /v1/version": true, "GET /v1/maintain/plan": true,
		"GET /v1/tiers": true, "GET /v1/reindex/status": true, "GET /v1/doctor": true, "POST /v1/backup": true}
	for _, p := range httpapi.RegisteredPatterns(srv) {
		if !ok[p] {
			t.Errorf("no successful exchange for %s: add one", p)
		}
		if !failed[p] && !inputless[p] {
			t.Errorf("no error exchange (other than 401) for %s: add one", p)
		}
	}
}

func describe(errs []*errors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "\n  %s: %s", e.Message, e.Reason)
		for _, se := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "\n    at %s (%s): %s", se.FieldPath, se.KeywordLocation, se.Reason)
		}
	}
	return b.String()
}
