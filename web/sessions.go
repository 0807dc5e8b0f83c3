package web

import (
	"net/http"

	"github.com/recall-mem/recall"
)

// sessionsShown is how many recent sessions the sessions page lists.
const sessionsShown = 100

func (h *Handler) sessions(w http.ResponseWriter, r *http.Request) {
	if h.b.Sessions == nil {
		h.fail(w, r, recall.Errorf(recall.ENOTIMPL, "This server does not offer sessions."))
		return
	}
	list, err := h.b.Sessions.ListSessions(r.Context(), sessionsShown)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "sessions", "Sessions", "sessions", list)
}

type sessionPage struct {
	ID    string
	Type  string // the type filter, empty for all
	Types []string
	Obs   []*recall.Observation
	Total int
}

// observationTypes are the types the timeline filter offers.
var observationTypes = []string{
	recall.ObsUserPrompt, recall.ObsCommand, recall.ObsCommandError, recall.ObsFileRead, recall.ObsFileWrite,
	recall.ObsFileEdit, recall.ObsSearch, recall.ObsMCPCall, recall.ObsAgentThinking, recall.ObsSessionStart, recall.ObsSessionEnd,
}

// timelineLimit caps one session's timeline; a longer session shows its
// first observations and says how many there are.
const timelineLimit = 500

// session shows one session's observations in order, optionally of one type.
func (h *Handler) session(w http.ResponseWriter, r *http.Request) {
	if h.b.Timeline == nil {
		h.fail(w, r, recall.Errorf(recall.ENOTIMPL, "This server does not offer observations."))
		return
	}
	p := sessionPage{ID: r.PathValue("id"), Type: r.URL.Query().Get("type"), Types: observationTypes}
	f := recall.ObservationFilter{Session: &p.ID, Limit: timelineLimit}
	if p.Type != "" {
		f.Type = &p.Type
	}
	var err error
	if p.Obs, p.Total, err = h.b.Timeline.Timeline(r.Context(), f); err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "session", "Session "+p.ID, "sessions", p)
}
