package web

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/recall-mem/recall/engine"
)

// healthTTL is how long the overview shows a doctor's report before
// running the checks again: they read the whole database (SQLite's
// integrity_check), far too slow to run on every page view.
const healthTTL = 10 * time.Minute

// healthCache keeps the last doctor report.
type healthCache struct {
	mu     sync.Mutex
	at     time.Time
	checks []engine.Check
	err    error
}

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
	c := &h.checks
	c.mu.Lock()
	defer c.mu.Unlock()
	now := h.b.now()
	if fresh || c.at.IsZero() || now.Sub(c.at) > healthTTL || now.Before(c.at) {
		c.checks, c.err = h.b.Health.Doctor(ctx)
		c.at = now
	}
	r := &healthReport{At: c.at, Checks: c.checks, Worst: engine.CheckOK}
	if c.err != nil {
		r.Err, r.Worst = c.err.Error(), engine.CheckFail
	}
	for _, ch := range c.checks {
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
