package httpapi

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/recall-mem/recall"
)

func (s *Server) observationRoutes(mux router) {
	mux.HandleFunc("POST /v1/observations", s.recordObservations)
	mux.HandleFunc("GET /v1/observations", s.findObservations)
}

func (s *Server) recordObservations(w http.ResponseWriter, r *http.Request) {
	var b observationBatch
	if err := decodeBody(r, &b); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	if err := s.Engine.Observe(r.Context(), b.Observations); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	writeJSON(w, http.StatusCreated, b)
}

// Query parameters of observation filters.
var observationParams = []string{"type", "key", "session", "project", "status"}

func encodeObservationFilter(q url.Values, f recall.ObservationFilter) {
	if f.ID != nil {
		q.Set("id", strconv.FormatInt(*f.ID, 10))
	}
	for i, v := range []*string{f.Type, f.Key, f.Session, f.Project, f.Status} {
		if v != nil {
			q.Set(observationParams[i], *v)
		}
	}
	if f.Since != nil {
		q.Set(qSince, formatTime(*f.Since))
	}
	if f.Until != nil {
		q.Set(qUntil, formatTime(*f.Until))
	}
	if f.Search != "" {
		q.Set("q", f.Search)
	}
	if f.Desc {
		q.Set("desc", "true")
	}
	encodePage(q, f.Limit, f.Offset)
}

func parseObservationFilter(q url.Values) (recall.ObservationFilter, error) {
	var f recall.ObservationFilter
	if v := q.Get("id"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return f, recall.Errorf(recall.EINVALID, "Invalid id=%q: observation ids are whole numbers.", v)
		}
		f.ID = &id
	}
	dst := []**string{&f.Type, &f.Key, &f.Session, &f.Project, &f.Status}
	for i, name := range observationParams {
		if _, ok := q[name]; ok {
			v := q.Get(name)
			*dst[i] = &v
		}
	}
	var err error
	if f.Since, err = parseTimeParam(q, qSince); err != nil {
		return f, err
	}
	if f.Until, err = parseTimeParam(q, qUntil); err != nil {
		return f, err
	}
	f.Search = q.Get("q")
	if v := q.Get("desc"); v != "" {
		if f.Desc, err = strconv.ParseBool(v); err != nil {
			return f, recall.Errorf(recall.EINVALID, "Invalid desc=%q: use true or false.", v)
		}
	}
	if f.Limit, err = intParam(q, qLimit); err != nil {
		return f, err
	}
	if f.Offset, err = intParam(q, qOffset); err != nil {
		return f, err
	}
	return f, nil
}

func (s *Server) findObservations(w http.ResponseWriter, r *http.Request) {
	f, err := parseObservationFilter(r.URL.Query())
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	// A filter over a collection: no match is an empty list (the
	// ObservationService contract), not the CLI timeline's not-found.
	obs, total, err := s.Engine.FindObservations(r.Context(), f)
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	if obs == nil {
		obs = []*recall.Observation{}
	}
	writeJSON(w, http.StatusOK, observationList{Observations: obs, Total: total})
}
