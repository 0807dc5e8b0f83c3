package httpapi

import (
	"net/http"
	"strings"

	"github.com/recall-mem/recall"
)

// methods are those a route of the API may take; noRoute asks the mux
// which of them a path answers.
var methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// noRoute answers a request no route took: 405 with an Allow header when
// the path is a route of other methods, else 404. The catch-all pattern "/"
// matches every method, so the mux's own 405 never happens: it is
// reconstructed here by asking the mux which pattern each method would
// reach.
func (s *Server) noRoute(mux *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range methods {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "" && pattern != "/" {
				allow = append(allow, m)
				if m == http.MethodGet {
					allow = append(allow, http.MethodHead)
				}
			}
		}
		if len(allow) == 0 {
			writeError(w, r, s.log(), recall.Errorf(recall.ENOTFOUND, "No route %s %s: the API lives under /v1/; GET /v1/openapi.json lists the routes.", r.Method, r.URL.Path))
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeErrorStatus(w, http.StatusMethodNotAllowed, recall.EINVALID,
			"Method "+r.Method+" is not allowed on "+r.URL.Path+": it takes "+strings.Join(allow, ", ")+" (GET /v1/openapi.json lists the routes).")
	}
}
