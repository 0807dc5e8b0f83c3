package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestHandler_RefusesForeignHost(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	r := httptest.NewRequest(http.MethodGet, "http://evil.example/memories", nil)
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	if w.Code != http.StatusForbidden {
		t.Fatalf("Host evil.example: got %d, want 403", w.Code)
	}
	if w := f.get("/memories"); w.Code != http.StatusOK {
		t.Fatalf("Host localhost: got %d, want 200", w.Code)
	}
}

func TestHandler_RefusesCrossSite(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	c := f.csrf()
	t.Run("ReadFromOtherSite", func(t *testing.T) {
		r := httptest.NewRequest(http.MethodGet, "http://localhost:7077/memories", nil)
		r.Header.Set("Sec-Fetch-Site", "cross-site")
		w := httptest.NewRecorder()
		f.h.ServeHTTP(w, r)
		if w.Code != http.StatusForbidden {
			t.Fatalf("got %d, want 403", w.Code)
		}
	})
	t.Run("PostFromOtherOrigin", func(t *testing.T) {
		// Even with a valid CSRF pair an old browser's cross-origin POST
		// (Origin set, no Sec-Fetch-Site) is refused.
		form := url.Values{csrfField: {c.Value}}
		r := httptest.NewRequest(http.MethodPost, "http://localhost:7077/memories/"+f.deploy.ID+"/delete", strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Origin", "http://evil.example")
		r.AddCookie(c)
		w := httptest.NewRecorder()
		f.h.ServeHTTP(w, r)
		if w.Code != http.StatusForbidden {
			t.Fatalf("got %d, want 403", w.Code)
		}
		if _, err := f.eng.Get(t.Context(), f.deploy.ID, ""); err != nil {
			t.Fatalf("memory gone after a refused request: %v", err)
		}
	})
}

func TestHandler_CSRF(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	path := "/memories/" + f.deploy.ID + "/delete"
	c := f.csrf()
	if c.Value == "" || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
		t.Fatalf("CSRF cookie %+v: want HttpOnly, SameSite=Strict", c)
	}
	for name, tc := range map[string]struct {
		form    url.Values
		cookies []*http.Cookie
	}{
		"NoToken":      {url.Values{}, []*http.Cookie{c}},
		"NoCookie":     {url.Values{csrfField: {c.Value}}, nil},
		"WrongToken":   {url.Values{csrfField: {strings.Repeat("0", 32)}}, []*http.Cookie{c}},
		"ForgedCookie": {url.Values{csrfField: {"x"}}, []*http.Cookie{{Name: csrfCookie, Value: "x"}}},
	} {
		t.Run(name, func(t *testing.T) {
			if w := f.post(path, tc.form, tc.cookies...); w.Code != http.StatusForbidden {
				t.Fatalf("got %d, want 403", w.Code)
			}
			if _, err := f.eng.Get(t.Context(), f.deploy.ID, ""); err != nil {
				t.Fatalf("memory gone after a refused request: %v", err)
			}
		})
	}
	t.Run("OK", func(t *testing.T) {
		w := f.post(path, url.Values{csrfField: {c.Value}}, c)
		if w.Code != http.StatusSeeOther {
			t.Fatalf("got %d, want 303: %s", w.Code, w.Body)
		}
		if _, err := f.eng.Get(t.Context(), f.deploy.ID, ""); err == nil {
			t.Fatal("memory still there after delete")
		}
	})
}

func TestHandler_Token(t *testing.T) {
	const token = "s3cret-token"
	f := newFixture(t, Options{Token: token})
	if w := f.get("/memories"); w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), `name="token"`) {
		t.Fatalf("no token: got %d, want 401 and the login form", w.Code)
	}
	if w := f.get("/memories?token=wrong"); w.Code != http.StatusUnauthorized {
		t.Fatalf("wrong token: got %d, want 401", w.Code)
	}
	if w := f.get("/static/style.css"); w.Code != http.StatusOK {
		t.Fatalf("stylesheet without token: got %d, want 200 (the login page needs it)", w.Code)
	}
	w := f.get("/memories?tag=ops&token=" + token)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("right token: got %d, want 303", w.Code)
	}
	if loc := w.Header().Get("Location"); strings.Contains(loc, token) || loc != "/memories?tag=ops" {
		t.Fatalf("redirect to %q: want the page without the token", loc)
	}
	var session *http.Cookie
	for _, c := range w.Result().Cookies() {
		if c.Name == sessionCookie {
			session = c
		}
	}
	if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteStrictMode || session.Path != "/" {
		t.Fatalf("session cookie %+v: want HttpOnly, SameSite=Strict, Path=/", session)
	}
	if strings.Contains(session.Value, token) {
		t.Fatal("the session cookie carries the token itself")
	}
	if w := f.get("/memories", session); w.Code != http.StatusOK {
		t.Fatalf("with the session cookie: got %d, want 200", w.Code)
	}
	r := httptest.NewRequest(http.MethodGet, "http://localhost:7077/memories", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	bw := httptest.NewRecorder()
	f.h.ServeHTTP(bw, r)
	if bw.Code != http.StatusOK {
		t.Fatalf("with the bearer header: got %d, want 200", bw.Code)
	}
	t.Run("LoginForm", func(t *testing.T) {
		login := f.get("/sessions")
		var c *http.Cookie
		for _, k := range login.Result().Cookies() {
			if k.Name == csrfCookie {
				c = k
			}
		}
		if c == nil {
			t.Fatal("login page set no CSRF cookie")
		}
		if w := f.post("/login", url.Values{csrfField: {c.Value}, "token": {"nope"}, "next": {"/sessions"}}, c); w.Code != http.StatusUnauthorized {
			t.Fatalf("wrong token: got %d, want 401", w.Code)
		}
		if w := f.post("/login", url.Values{"token": {token}, "next": {"/sessions"}}, c); w.Code != http.StatusForbidden {
			t.Fatalf("login without CSRF field: got %d, want 403", w.Code)
		}
		w := f.post("/login", url.Values{csrfField: {c.Value}, "token": {token}, "next": {"//evil.example/"}}, c)
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/" {
			t.Fatalf("login: got %d to %q, want 303 to / (never another host)", w.Code, w.Header().Get("Location"))
		}
		var session *http.Cookie
		for _, k := range w.Result().Cookies() {
			if k.Name == sessionCookie {
				session = k
			}
		}
		// A second login form posted while signed in goes where it was going.
		again := f.post("/login", url.Values{csrfField: {c.Value}, "token": {token}, "next": {"/sessions"}}, c, session)
		if again.Code != http.StatusSeeOther || again.Header().Get("Location") != "/sessions" {
			t.Fatalf("login while signed in: got %d to %q, want 303 to /sessions", again.Code, again.Header().Get("Location"))
		}
	})
}

func TestHandler_SecurityHeaders(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	w := f.get("/")
	csp := w.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "form-action 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("CSP %q allows inline script or eval", csp)
	}
	if got := w.Header().Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q", got)
	}
}

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{
		"/memories?tag=a": "/memories?tag=a", "/": "/", "": "/", "https://evil.example/": "/", "//evil.example": "/",
		"/\\evil.example": "/", "/\t/evil.example": "/", "/\n/evil.example": "/", "/login": "/", "memories": "/",
	} {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHandler_LoginFormDropsWrongToken(t *testing.T) {
	f := newFixture(t, Options{Token: "right"})
	body := f.get("/memories?tag=ops&token=wrong").Body.String()
	contains(t, "login form", body, `name="next" value="/memories?tag=ops"`)
	if strings.Contains(body, "wrong") {
		t.Error("the login form carries the wrong token on")
	}
}
