package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/engine/enginetest"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/sqlite"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
)

// fixture is a UI over a real engine on a SQLite project store with a few
// memories, a session and its observations.
type fixture struct {
	t       *testing.T
	h       *Handler
	eng     *engine.Engine
	deploy  *recall.Memory // a memory with two versions
	session string
}

// newEngine opens an engine on a new project store, with hashed vectors.
func newEngine(tb testing.TB) *engine.Engine {
	parts := engine.Parts{Backend: sqlite.Backend{},
		NewEmbedder: func(engine.RetrievalConfig) (recall.Embedder, bool, error) { return hashing.None{}, true, nil }}
	return enginetest.Open(tb, parts, io.Discard)
}

func newFixture(t *testing.T, opt Options) *fixture {
	t.Helper()
	e := newEngine(t)
	ctx := context.Background()
	put := func(m *recall.Memory) *recall.Memory {
		t.Helper()
		res, err := e.Put(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		return res.Memory
	}
	f := &fixture{t: t, eng: e}
	f.deploy = put(&recall.Memory{Key: "deploy", Title: "How we deploy", Content: "Deploys run from **main** with `make release`.", Tags: []string{"ops"}, Type: "procedure"})
	content := "Deploys run from **main** with `make release` after CI passes."
	if _, err := e.Update(ctx, f.deploy.ID, recall.MemoryUpdate{Content: &content}); err != nil {
		t.Fatal(err)
	}
	put(&recall.Memory{Key: "editor", Title: "Editor preference", Content: "The user prefers Helix over Vim.", Tags: []string{"prefs"}, Type: "preference"})
	put(&recall.Memory{Key: "db", Title: "Database choice", Content: "We store everything in SQLite; no server.", Type: "decision", Tier: recall.TierWorking})
	rep, err := e.StartSession(ctx, &recall.Session{ID: "s-one", Project: "demo", Agent: "test"})
	if err != nil {
		t.Fatal(err)
	}
	f.session = rep.Session.ID
	at := sqlitetest.Clock
	if err := e.Observe(ctx, []*recall.Observation{
		{At: at, Type: recall.ObsUserPrompt, Session: f.session, Content: "please deploy the site"},
		{At: at.Add(1e9), Type: recall.ObsCommand, Session: f.session, Tool: "Bash", Content: "export API_KEY=[REDACTED:api_key] && make release"},
		{At: at.Add(2e9), Type: recall.ObsFileEdit, Session: f.session, File: "Makefile", Content: "edited the release target"},
	}); err != nil {
		t.Fatal(err)
	}
	b := BackendOf(e)
	b.Now = func() time.Time { return sqlitetest.Clock }
	h, err := New(b, opt)
	if err != nil {
		t.Fatal(err)
	}
	f.h = h
	return f
}

// get requests path from localhost with the given cookies.
func (f *fixture) get(path string, cookies ...*http.Cookie) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, "http://localhost:7077"+path, nil)
	for _, c := range cookies {
		r.AddCookie(c)
	}
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	return w
}

// post submits a form to path from this origin, as the UI's own page would.
func (f *fixture) post(path string, form url.Values, cookies ...*http.Cookie) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "http://localhost:7077"+path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Origin", "http://localhost:7077")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	for _, c := range cookies {
		r.AddCookie(c)
	}
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	return w
}

// csrf loads a page and returns the CSRF cookie it set.
func (f *fixture) csrf() *http.Cookie {
	f.t.Helper()
	for _, c := range f.get("/memories").Result().Cookies() {
		if c.Name == csrfCookie {
			return c
		}
	}
	f.t.Fatal("no CSRF cookie set by a page")
	return nil
}
