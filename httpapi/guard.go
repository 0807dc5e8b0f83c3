package httpapi

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"

	"github.com/recall-mem/recall"
)

// guard wraps h with the checks every request passes, cheapest first:
// DNS rebinding (Host), browser cross-site requests, the bearer token, and
// a cap on the body size. A refused Host or cross-site request is 403
// (no token would help); a missing or wrong token is 401.
func (s *Server) guard(h http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, s.log(), recall.Errorf(recall.EFORBIDDEN, "Cross-origin request refused: recall's API is not for web pages on other sites."))
	}))
	inner := cop.Handler(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.Loopback && !IsLoopbackHost(r.Host) {
			// A page on evil.example that rebinds its name to 127.0.0.1
			// still sends Host: evil.example.
			writeError(w, r, s.log(), recall.Errorf(recall.EFORBIDDEN, "Host %q refused: this server only answers requests addressed to localhost.", r.Host))
			return
		}
		// CrossOriginProtection lets safe methods through; a browser that
		// says the request is cross-site is refused for every method, so
		// pages elsewhere cannot read memories either.
		if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
			writeError(w, r, s.log(), recall.Errorf(recall.EFORBIDDEN, "Cross-site request refused: recall's API is not for web pages on other sites."))
			return
		}
		if s.Token != "" && !s.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="recall"`)
			writeError(w, r, s.log(), recall.Errorf(recall.EUNAUTHORIZED, "Missing or wrong token: send the header \"Authorization: Bearer TOKEN\" with the server's --token (or RECALL_TOKEN)."))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.maxBody())
		inner.ServeHTTP(w, r)
	})
}

// authorized checks "Authorization: Bearer TOKEN"; the scheme is
// case-insensitive (RFC 9110 section 11.1), so "bearer TOKEN" passes too.
func (s *Server) authorized(r *http.Request) bool {
	scheme, got, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	return ok && strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(s.Token)) == 1
}

// IsLoopbackHost reports whether host (a Host header or an address, with or
// without a port) names this machine: localhost, *.localhost or a loopback
// IP.
func IsLoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckBind says whether addr is loopback-only and refuses any other
// address without a token: a store reachable from the network must not
// be open to anyone who can connect. Returns EINVALID for a malformed
// address or a non-loopback one without a token.
func CheckBind(addr, token string) (loopback bool, err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, recall.Errorf(recall.EINVALID, "Invalid address %q: use HOST:PORT, like 127.0.0.1:7077.", addr)
	}
	if host != "" && IsLoopbackHost(host) {
		return true, nil
	}
	if token == "" {
		return false, recall.Errorf(recall.EINVALID, "Address %q is reachable from other machines: pass --token TOKEN (or set RECALL_TOKEN) so that every request must carry it, or bind 127.0.0.1.", addr)
	}
	return false, nil
}
