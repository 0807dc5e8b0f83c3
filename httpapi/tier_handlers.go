package httpapi

import (
	"net/http"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/maintain"
)

// tierRoutes reconcile the project's managed files with the store, plan
// and apply maintenance, and run the time-tier rollups. The project is
// the one the server's store belongs to.
func (s *Server) tierRoutes(mux router) {
	mux.HandleFunc("GET /v1/sync/plan", s.planSync)
	mux.HandleFunc("POST /v1/sync", s.sync)
	mux.HandleFunc("GET /v1/maintain/plan", s.maintainPlan)
	mux.HandleFunc("POST /v1/maintain/apply", s.maintainApply)
	mux.HandleFunc("POST /v1/rollups/run", s.runRollups)
	mux.HandleFunc("GET /v1/tiers", s.tiers)
}

// nowParam reads ?now= (RFC 3339), the engine's clock when absent.
func (s *Server) nowParam(r *http.Request) (time.Time, error) {
	t, err := parseTimeParam(r.URL.Query(), "now")
	if err != nil {
		return time.Time{}, err
	}
	return s.nowOr(t), nil
}

func (s *Server) planSync(w http.ResponseWriter, r *http.Request) {
	now, err := s.nowParam(r)
	var rep *engine.SyncReport
	if err == nil {
		rep, err = s.Engine.PlanSyncProject(r.Context(), "", now)
	}
	s.reply(w, r, http.StatusOK, rep, err)
}

// syncBody is the optional body of POST /v1/sync.
type syncBody struct {
	Now *time.Time `json:"now,omitempty"` // the time the sync treats as now
}

func (s *Server) sync(w http.ResponseWriter, r *http.Request) {
	var b syncBody
	if err := decodeOptionalBody(r, &b); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	rep, err := s.Engine.SyncProject(r.Context(), "", s.nowOr(b.Now))
	s.reply(w, r, http.StatusOK, rep, err)
}

func (s *Server) maintainPlan(w http.ResponseWriter, r *http.Request) {
	plan, err := s.Engine.PlanMaintenance(r.Context(), "", s.Engine.Now())
	s.reply(w, r, http.StatusOK, plan, err)
}

// maintainBody is the body of POST /v1/maintain/apply.
type maintainBody struct {
	// Choices are an action per memory id (keep, pin, unpin, snooze,
	// demote, archive, supersede, verify or review); the first for an id
	// wins.
	Choices []choiceBody `json:"choices,omitempty"`
	// Recommended adds the plan's recommendations (demote for pressure,
	// archive for superseded) after the choices.
	Recommended bool       `json:"recommended,omitempty"`
	SnoozeDays  int        `json:"snooze_days,omitempty"` // the length of a snooze; 0 means 30
	Now         *time.Time `json:"now,omitempty"`         // the time maintenance treats as now
}

// choiceBody is one action on one memory.
type choiceBody struct {
	ID     string `json:"id"`
	Action string `json:"action"`
}

func (b maintainBody) choices() ([]maintain.Choice, error) {
	var out []maintain.Choice
	for _, c := range b.Choices {
		act, err := maintain.ParseAction(c.Action)
		if err != nil {
			return nil, err
		}
		if c.ID == "" {
			return nil, recall.Errorf(recall.EINVALID, "A choice without an id: give each choice the memory's id.")
		}
		out = append(out, maintain.Choice{ID: c.ID, Action: act})
	}
	if len(out) == 0 && !b.Recommended {
		return nil, recall.Errorf(recall.EINVALID, "Nothing to apply: give choices, or recommended true to apply the plan's recommendations.")
	}
	if b.SnoozeDays < 0 {
		return nil, recall.Errorf(recall.EINVALID, "Invalid snooze_days %d: give a positive number of days.", b.SnoozeDays)
	}
	return out, nil
}

func (s *Server) maintainApply(w http.ResponseWriter, r *http.Request) {
	var b maintainBody
	if err := decodeBody(r, &b); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	choices, err := b.choices()
	var res *engine.MaintainResult
	if err == nil {
		res, err = s.Engine.ApplyMaintenance(r.Context(), "", s.nowOr(b.Now), choices, b.Recommended, b.SnoozeDays)
	}
	s.reply(w, r, http.StatusOK, res, err)
}

// rollupBody is the optional body of POST /v1/rollups/run.
type rollupBody struct {
	// DryRun computes everything and writes nothing; the report lists
	// the rollups it would write.
	DryRun bool `json:"dry_run,omitempty"`
	// Now is the time the run treats as now: buckets ending later stay open.
	Now *time.Time `json:"now,omitempty"`
}

func (s *Server) runRollups(w http.ResponseWriter, r *http.Request) {
	var b rollupBody
	if err := decodeOptionalBody(r, &b); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	rep, err := s.Engine.RunRollups(r.Context(), recall.RollupRun{DryRun: b.DryRun, Now: s.nowOr(b.Now)})
	s.reply(w, r, http.StatusOK, rep, err)
}

// tierList is the response to GET /v1/tiers.
type tierList struct {
	Tiers []recall.TierStat `json:"tiers"`
}

func (s *Server) tiers(w http.ResponseWriter, r *http.Request) {
	ts, err := s.Engine.Tiers(r.Context())
	if ts == nil {
		ts = []recall.TierStat{}
	}
	s.reply(w, r, http.StatusOK, tierList{Tiers: ts}, err)
}
