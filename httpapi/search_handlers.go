package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/recall-mem/recall"
)

func (s *Server) searchRoutes(mux router) {
	mux.HandleFunc("GET /v1/search", s.search)
	mux.HandleFunc("POST /v1/context", s.buildContext)
}

// hitList is the response to GET /v1/search.
type hitList struct {
	Hits []*recall.SearchHit `json:"hits"`
}

// searchQuery reads a search from query parameters: q, limit, mode,
// explain, now, as_of and the memory filter parameters.
func searchQuery(r *http.Request) (recall.SearchQuery, error) {
	qv := r.URL.Query()
	q := recall.SearchQuery{Text: qv.Get("q"), Mode: qv.Get("mode")}
	var err error
	if q.Filter, err = parseFilter(qv); err != nil {
		return q, err
	}
	// limit and offset belong to the search, not to the filter.
	q.Limit, q.Filter.Limit, q.Filter.Offset = q.Filter.Limit, 0, 0
	if v := qv.Get("explain"); v != "" {
		if q.Explain, err = strconv.ParseBool(v); err != nil {
			return q, recall.Errorf(recall.EINVALID, "Invalid explain=%q: use true or false.", v)
		}
	}
	now, err := parseTimeParam(qv, "now")
	if err != nil {
		return q, err
	}
	if now != nil {
		q.Now = *now
	}
	if q.AsOf, err = parseTimeParam(qv, "as_of"); err != nil {
		return q, err
	}
	return q, nil
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	q, err := searchQuery(r)
	if err == nil && q.Text == "" {
		err = recall.Errorf(recall.EINVALID, "Missing query: pass ?q=WORDS.")
	}
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	hits, err := s.Engine.Search(r.Context(), q)
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	if hits == nil {
		hits = []*recall.SearchHit{}
	}
	writeJSON(w, http.StatusOK, hitList{Hits: hits})
}

func (s *Server) buildContext(w http.ResponseWriter, r *http.Request) {
	var b contextBody
	if err := decodeBody(r, &b); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	pack, err := s.Engine.Context(r.Context(), recall.ContextRequest{
		Query: b.Query, Budget: b.Budget, Now: b.Now, Filter: b.Filter.filter(),
	})
	s.reply(w, r, http.StatusOK, pack, err)
}

// formatTime writes a time parameter the way parseTimeParam reads it.
func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
