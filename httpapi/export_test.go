package httpapi

import "net/http"

// patternRecorder is a router that only remembers what was registered.
type patternRecorder struct{ patterns []string }

func (r *patternRecorder) Handle(pattern string, _ http.Handler) {
	r.patterns = append(r.patterns, pattern)
}

func (r *patternRecorder) HandleFunc(pattern string, _ func(http.ResponseWriter, *http.Request)) {
	r.patterns = append(r.patterns, pattern)
}

// RegisteredPatterns lists the /v1/ patterns s registers on its mux.
func RegisteredPatterns(s *Server) []string {
	rec := &patternRecorder{}
	s.registerRoutes(rec)
	return rec.patterns
}
