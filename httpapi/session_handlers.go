package httpapi

import (
	"net/http"

	"github.com/recall-mem/recall"
)

func (s *Server) sessionRoutes(mux router) {
	mux.HandleFunc("POST /v1/sessions", s.startSession)
	mux.HandleFunc("GET /v1/sessions", s.findSessions)
	mux.HandleFunc("POST /v1/sessions/{id}/end", s.endSession)
	mux.HandleFunc("POST /v1/sessions/end", s.endSession)
}

func (s *Server) startSession(w http.ResponseWriter, r *http.Request) {
	var sess recall.Session
	if err := decodeBody(r, &sess); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	rep, err := s.Engine.StartSession(r.Context(), &sess)
	s.reply(w, r, http.StatusCreated, rep, err)
}

// sessionList is the response to GET /v1/sessions.
type sessionList struct {
	Sessions []*recall.Session `json:"sessions"`
}

func (s *Server) findSessions(w http.ResponseWriter, r *http.Request) {
	limit, err := intParam(r.URL.Query(), qLimit)
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	ss, err := s.Engine.ListSessions(r.Context(), limit)
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	if ss == nil {
		ss = []*recall.Session{}
	}
	writeJSON(w, http.StatusOK, sessionList{Sessions: ss})
}

func (s *Server) endSession(w http.ResponseWriter, r *http.Request) {
	var end recall.SessionEnd
	if err := decodeBody(r, &end); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	// Without an id in the path (POST /v1/sessions/end) the body's id, if
	// any, is used, and none ends an implicit session under a new id.
	if id := r.PathValue("id"); id != "" {
		end.ID = id
	}
	sess, err := s.Engine.EndSession(r.Context(), end)
	s.reply(w, r, http.StatusOK, sess, err)
}
