package web

import (
	"context"
	"net/http"
	"time"

	"github.com/recall-mem/recall/engine"
)

// healthTTL is how long the overview shows a doctor's report before
// running the checks again: they read the whole database (SQLite's
// integrity_check), far too slow to run on every page view.
const healthTTL = 10 * time.Minute

// healthReport is the store health the overview shows.
type healthReport struct {
	At     time.Time
	Checks []engine.Check
	Worst  string // ok, info, warn or fail
	Err    string
}

// health returns the doctor's report, running the checks when the last
// report is older than healthTTL or fresh is set.
func (h *Handler) health(ctx context.Context, fresh bool) *healthReport {
	if h.b.Health == nil {
		return nil
	}
	checks, at, err := h.checks.get(h.b.now(), healthTTL, fresh, func() ([]engine.Check, error) { return h.b.Health.Doctor(ctx) })
	r := &healthReport{At: at, Checks: checks, Worst: engine.CheckOK}
	if err != nil {
		r.Err, r.Worst = err.Error(), engine.CheckFail
	}
	for _, ch := range checks {
		if statusRank(ch.Status) > statusRank(r.Worst) {
			r.Worst = ch.Status
		}
	}
	return r
}

func statusRank(s string) int {
	switch s {
	case engine.CheckInfo:
		return 1
	case engine.CheckWarn:
		return 2
	case engine.CheckFail:
		return 3
	}
	return 0
}

// recheck runs the doctor's checks now and shows the overview.
func (h *Handler) recheck(w http.ResponseWriter, r *http.Request) {
	h.health(r.Context(), true)
	http.Redirect(w, r, "/#health", http.StatusSeeOther)
}
