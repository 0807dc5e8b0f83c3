package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// entryRoutes are the per-memory routes beyond CRUD: the diff between two
// versions and the maintenance actions, which move a managed entry's line
// between the project's files as `recall pin` and its siblings do.
func (s *Server) entryRoutes(mux router) {
	mux.HandleFunc("GET /v1/memories/{id}/diff", s.memoryDiff)
	for _, a := range entryActions {
		mux.HandleFunc("POST /v1/memories/{id}/"+a.name, s.entryAction(a))
	}
}

// actionFunc is an engine action bound to its snooze length.
type actionFunc func(ctx context.Context, rootFlag, ref string, now time.Time) (engine.Applied, error)

// entryAction is one maintenance action of the engine on one memory: the
// route's last segment, its summary, and the engine method it calls.
type entryAction struct {
	name, summary string
	method        func(e Engine, days int) actionFunc
}

// entryActions lists the actions in the order of the document.
var entryActions = []entryAction{
	{"pin", "Pin a memory: core memory, never a pressure candidate, never evicted.", func(e Engine, _ int) actionFunc { return e.Pin }},
	{"unpin", "Unpin a memory, so maintenance may demote it again.", func(e Engine, _ int) actionFunc { return e.Unpin }},
	{"snooze", "Keep a memory out of pressure and staleness checks for some days.", func(e Engine, days int) actionFunc {
		return func(ctx context.Context, rootFlag, ref string, now time.Time) (engine.Applied, error) {
			return e.Snooze(ctx, rootFlag, ref, days, now)
		}
	}},
	{"demote", "Move a working memory to the register inbox; its line moves to the register's file.", func(e Engine, _ int) actionFunc { return e.Demote }},
	{"archive", "Move a memory to the archive.", func(e Engine, _ int) actionFunc { return e.Archive }},
	{"supersede", "Mark a memory superseded; the next maintenance archives it.", func(e Engine, _ int) actionFunc { return e.Supersede }},
	{"review", "Mark a memory reviewed now, accepting its anchored files as they are.", func(e Engine, _ int) actionFunc { return e.Review }},
}

// actionBody is the optional body of the action routes.
type actionBody struct {
	// Days is the length of a snooze (snooze only); 0 means 30.
	Days int `json:"days,omitempty"`
	// Now is the time the action treats as now; absent means the clock.
	Now *time.Time `json:"now,omitempty"`
}

func (s *Server) entryAction(a entryAction) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var b actionBody
		if err := decodeOptionalBody(r, &b); err != nil {
			writeError(w, r, s.log(), err)
			return
		}
		if b.Days < 0 {
			writeError(w, r, s.log(), recall.Errorf(recall.EINVALID, "Invalid days %d: give a positive number of days.", b.Days))
			return
		}
		ref, err := s.target(r)
		if err != nil {
			writeError(w, r, s.log(), err)
			return
		}
		days := b.Days
		if days == 0 {
			days = recall.DefaultSnoozeDays
		}
		done, err := a.method(s.Engine, days)(r.Context(), "", ref, s.nowOr(b.Now))
		s.reply(w, r, http.StatusOK, done, err)
	}
}

// nowOr is t when given, else the engine's clock.
func (s *Server) nowOr(t *time.Time) time.Time {
	if t != nil && !t.IsZero() {
		return t.UTC()
	}
	return s.Engine.Now()
}

// diffReport is the response to GET /v1/memories/{id}/diff.
type diffReport struct {
	ID   string `json:"id"`
	From int    `json:"from"`
	To   int    `json:"to"`
	// Diff is a unified diff of the two versions' fields and content;
	// empty when they are the same.
	Diff string `json:"diff"`
}

func (s *Server) memoryDiff(w http.ResponseWriter, r *http.Request) {
	m, err := s.findMemory(r)
	if err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	q := r.URL.Query()
	to, from := m.Version, m.Version-1
	for name, dst := range map[string]*int{"from": &from, "to": &to} {
		if v := q.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				writeError(w, r, s.log(), recall.Errorf(recall.EINVALID, "Invalid %s=%q: give a version number from 1.", name, v))
				return
			}
			*dst = n
		}
	}
	if from < 1 {
		from = 1
	}
	d, err := s.Engine.Diff(r.Context(), m.ID, from, to)
	s.reply(w, r, http.StatusOK, diffReport{ID: m.ID, From: from, To: to, Diff: string(d)}, err)
}
