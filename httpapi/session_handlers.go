package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/recall-mem/recall"
)

func (s *Server) sessionRoutes(mux *http.ServeMux) {
	if s.Services.Sessions == nil {
		mux.Handle("/v1/sessions", s.notOffered("sessions"))
		mux.Handle("/v1/sessions/", s.notOffered("sessions"))
	} else {
		mux.HandleFunc("POST /v1/sessions", s.startSession)
		mux.HandleFunc("GET /v1/sessions", s.findSessions)
		mux.HandleFunc("POST /v1/sessions/{id}/end", s.endSession)
	}
	if s.Services.Maintainer == nil {
		mux.Handle("/v1/maintain/plan", s.notOffered("maintenance plans"))
	} else {
		mux.HandleFunc("GET /v1/maintain/plan", s.maintainPlan)
	}
}

func (s *Server) startSession(w http.ResponseWriter, r *http.Request) {
	var sess recall.Session
	if err := decodeBody(r, &sess); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	rep, err := s.Services.Sessions.StartSession(r.Context(), &sess)
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	writeJSON(w, http.StatusCreated, rep)
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
	ss, err := s.Services.Sessions.FindSessions(r.Context(), limit)
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
	end.ID = r.PathValue("id")
	sess, err := s.Services.Sessions.EndSession(r.Context(), end)
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	writeJSON(w, http.StatusOK, sess)
}

func (s *Server) maintainPlan(w http.ResponseWriter, r *http.Request) {
	plan, err := s.Services.Maintainer.Plan(r.Context())
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	writeJSON(w, http.StatusOK, plan)
}

var (
	_ recall.SessionService = (*Client)(nil)
	_ recall.Maintainer     = (*Client)(nil)
)

// StartSession implements recall.SessionService.
func (c *Client) StartSession(ctx context.Context, sess *recall.Session) (*recall.SessionStartReport, error) {
	var rep recall.SessionStartReport
	if err := c.do(ctx, http.MethodPost, "/v1/sessions", nil, sess, &rep); err != nil {
		return nil, err
	}
	return &rep, nil
}

// EndSession implements recall.SessionService.
func (c *Client) EndSession(ctx context.Context, end recall.SessionEnd) (*recall.Session, error) {
	var sess recall.Session
	if err := c.do(ctx, http.MethodPost, "/v1/sessions/"+url.PathEscape(end.ID)+"/end", nil, end, &sess); err != nil {
		return nil, err
	}
	return &sess, nil
}

// FindSessions implements recall.SessionService.
func (c *Client) FindSessions(ctx context.Context, limit int) ([]*recall.Session, error) {
	var q url.Values
	if limit > 0 {
		q = url.Values{qLimit: {strconv.Itoa(limit)}}
	}
	var out sessionList
	if err := c.do(ctx, http.MethodGet, "/v1/sessions", q, nil, &out); err != nil {
		return nil, err
	}
	return out.Sessions, nil
}

// Plan implements recall.Maintainer.
func (c *Client) Plan(ctx context.Context) (*recall.MaintainPlan, error) {
	var plan recall.MaintainPlan
	if err := c.do(ctx, http.MethodGet, "/v1/maintain/plan", nil, nil, &plan); err != nil {
		return nil, err
	}
	return &plan, nil
}
