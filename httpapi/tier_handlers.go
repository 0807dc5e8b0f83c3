package httpapi

import (
	"net/http"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
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
	plan, err := s.Engine.PlanMaintenance(r.Context(), "")
	s.reply(w, r, http.StatusOK, plan, err)
}

func (s *Server) maintainApply(w http.ResponseWriter, r *http.Request) {
	var b engine.MaintainRequest
	if err := decodeBody(r, &b); err != nil {
		writeError(w, r, s.log(), err)
		return
	}
	res, err := s.Engine.ApplyMaintenance(r.Context(), "", b)
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
