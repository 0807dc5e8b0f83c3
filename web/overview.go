package web

import (
	"net/http"

	"github.com/recall-mem/recall"
)

type overviewPage struct {
	Memories int
	ByTier   []tierCount
	Stats    *recall.StoreStats // nil without a StatsReader
	Plan     *recall.MaintainPlan
	PlanErr  string // why the working set could not be measured
	Recent   []*recall.Session
	// Plots of rows per kind, when store statistics are available.
	TierPlot, ObsPlot *barChart
}

type tierCount struct {
	Tier  string
	Count int
}

// recentSessions is how many sessions the overview lists.
const recentSessions = 5

func (h *Handler) overview(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var p overviewPage
	if h.b.Stats != nil {
		st, err := h.b.Stats(ctx, h.b.now())
		if err != nil {
			h.fail(w, r, err)
			return
		}
		p.Stats, p.Memories = st, st.Memories
	}
	for _, tier := range []string{recall.TierWorking, recall.TierRegister, recall.TierArchive} {
		if p.Stats != nil {
			p.ByTier = append(p.ByTier, tierCount{tier, p.Stats.MemoriesByTier[tier]})
			continue
		}
		// Without store statistics, count through the filter's total: no
		// extra interface, but a count query per tier.
		_, n, err := h.b.Memories.FindMemories(ctx, recall.MemoryFilter{Tier: &tier, Limit: 1})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		p.ByTier = append(p.ByTier, tierCount{tier, n})
		p.Memories += n
	}
	if p.Stats != nil {
		p.TierPlot = newBarChart("Memories by tier", p.Stats.MemoriesByTier)
		p.ObsPlot = newBarChart("Observations by type", p.Stats.ObservationsByType)
	}
	if h.b.Maintainer != nil {
		// A plan needs the project's working file; outside a project it
		// fails, and the overview says so instead of failing itself.
		if plan, err := h.b.Maintainer.Plan(ctx); err != nil {
			p.PlanErr = recall.ErrorMessage(err)
		} else {
			p.Plan = plan
		}
	}
	if h.b.Sessions != nil {
		recent, err := h.b.Sessions.FindSessions(ctx, recentSessions)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		p.Recent = recent
	}
	h.render(w, r, http.StatusOK, "overview", "Overview", "overview", p)
}
