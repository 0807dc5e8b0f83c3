package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/recall-mem/recall/httpapi"
)

// Cookie names. Both are HttpOnly and SameSite=Strict: no script reads
// them and no other site's page sends them.
const (
	sessionCookie = "recall_session"
	csrfCookie    = "recall_csrf"
	csrfField     = "csrf"
)

// contentSecurityPolicy allows only this server's own stylesheet and
// script: no inline script, no other origin, no plugins, no framing. An
// image in memory content that points elsewhere does not load, so the UI
// makes no network request beyond this server.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// guard applies the REST rules to the UI (Host, cross-site, token) and
// then its own: a token given once becomes a session cookie, and every
// POST must carry the CSRF token and come from this origin.
func (h *Handler) guard(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.refuse(w, http.StatusForbidden, "Cross-origin request refused: this page only accepts forms from itself.")
	}))
	inner := cop.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Cache-Control", "no-store")
		if h.opt.Loopback && !httpapi.IsLoopbackHost(r.Host) {
			h.refuse(w, http.StatusForbidden, "Host refused: this server only answers requests addressed to localhost.")
			return
		}
		if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
			h.refuse(w, http.StatusForbidden, "Cross-site request refused: recall's pages are not for other sites.")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if h.opt.Token != "" && !h.signedIn(r) && !strings.HasPrefix(r.URL.Path, "/static/") {
			h.signIn(w, r)
			return
		}
		if r.Method == http.MethodPost && !validCSRF(r) {
			h.refuse(w, http.StatusForbidden, "The form's security token is missing or stale: reload the page and try again.")
			return
		}
		inner.ServeHTTP(w, r)
	})
}

// maxFormBytes caps a form body: above the store's 1 MiB content cap so
// that the store, not the transport, reports oversized content.
const maxFormBytes = 4 << 20

// sessionValue is what the session cookie holds: derived from the token,
// so the cookie proves the token without carrying it.
func (h *Handler) sessionValue() string {
	m := hmac.New(sha256.New, []byte(h.opt.Token))
	m.Write([]byte("recall web session"))
	return hex.EncodeToString(m.Sum(nil))
}

func (h *Handler) signedIn(r *http.Request) bool {
	if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && h.tokenMatches(strings.TrimSpace(got)) {
		return true
	}
	c, err := r.Cookie(sessionCookie)
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(h.sessionValue())) == 1
}

func (h *Handler) tokenMatches(got string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(h.opt.Token)) == 1
}

// signIn answers a request without a session: a right ?token= on a GET, or
// the login form's POST, sets the cookie and redirects to the same page
// without the token in its address; anything else gets the login form.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if tok := q.Get("token"); tok != "" && r.Method == http.MethodGet && h.tokenMatches(tok) {
		h.setSession(w, r)
		q.Del("token")
		u := *r.URL
		u.RawQuery = q.Encode()
		http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
		return
	}
	if r.URL.Path == "/login" && r.Method == http.MethodPost {
		if !validCSRF(r) {
			h.refuse(w, http.StatusForbidden, "The form's security token is missing or stale: reload the page and try again.")
			return
		}
		if h.tokenMatches(r.PostFormValue("token")) {
			h.setSession(w, r)
			http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
			return
		}
		h.renderLogin(w, r, http.StatusUnauthorized, "That token is not the server's token.")
		return
	}
	h.renderLogin(w, r, http.StatusUnauthorized, "")
}

func (h *Handler) setSession(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: h.sessionValue(), Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
}

// safeNext keeps a post-login redirect on this server: a path, never
// another host. Browsers drop tabs and newlines and read "\\" as "/", so
// "/\t/evil.example" would leave; anything with such characters goes home.
func safeNext(next string) string {
	odd := strings.ContainsFunc(next, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' })
	if odd || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/login") {
		return "/"
	}
	return next
}

// csrfToken returns the request's CSRF token, setting a fresh cookie when
// the browser has none yet. Forms send it back in a hidden field: a page
// on another site can neither read the cookie nor the field.
func csrfToken(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(csrfCookie); err == nil && len(c.Value) == 32 {
		return c.Value
	}
	var b [16]byte
	rand.Read(b[:])
	v := hex.EncodeToString(b[:])
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: v, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	r.AddCookie(&http.Cookie{Name: csrfCookie, Value: v}) // later calls in this request see it
	return v
}

func validCSRF(r *http.Request) bool {
	c, err := r.Cookie(csrfCookie)
	if err != nil || len(c.Value) != 32 {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(r.PostFormValue(csrfField)), []byte(c.Value)) == 1
}
