package web

import (
	"context"
	"net/http"
	"time"

	"github.com/recall-mem/recall"
)

type overviewPage struct {
	Memories int
	ByTier   []tierCount
	Stats    *recall.StoreStats // nil without Stats
	Health   *healthReport      // nil without Health
	Plan     *recall.MaintainPlan
	PlanErr  string // why the working set could not be measured
	Recent   []*recall.Session
	// Plots: rows per kind (with store statistics), store growth, the
	// working set against its budget, and how much rollups compress.
	TierPlot, ObsPlot, WorkingPlot *barChart
	Growth                         *columnChart
	Compression                    *barChart
	CompressionNote                string
}

type tierCount struct {
	Tier  string
	Count int
}

// panelTTL is how long the overview shows a maintain plan before reading
// it again; changes made through the UI drop it at once.
const panelTTL = time.Minute

// recentSessions is how many sessions the overview lists.
const recentSessions = 5

func (h *Handler) overview(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var p overviewPage
	now := h.b.now()
	if h.b.Stats != nil {
		st, err := h.b.Stats.Stats(ctx, now)
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
		_, n, err := h.b.Memories.List(ctx, recall.MemoryFilter{Tier: &tier, Limit: 1})
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
	growth, err := h.growth(ctx, now)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p.Growth = growth
	if h.b.Maintenance != nil {
		// A plan needs the project's working file; outside a project it
		// fails, and the overview says so instead of failing itself.
		plan, _, err := h.plan.get(now, panelTTL, false, func() (*recall.MaintainPlan, error) { return h.b.Maintenance.PlanMaintenance(ctx, "", now) })
		if err != nil {
			p.PlanErr = recall.ErrorMessage(err)
		} else {
			p.Plan = plan
			p.WorkingPlot = newBudgetChart(plan)
		}
	}
	if h.b.Rollups != nil {
		// Read on every view: the store answers from indexes that hold
		// only compacted entries and rollups, unlike the full Tiers.
		tiers, err := h.b.Rollups.Compression(ctx)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		p.Compression, p.CompressionNote = newCompressionChart(tiers)
	}
	if h.b.Sessions != nil {
		recent, err := h.b.Sessions.ListSessions(ctx, recentSessions)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		p.Recent = recent
	}
	p.Health = h.health(ctx, false)
	h.render(w, r, http.StatusOK, "overview", "Overview", "overview", p)
}

// growthWeeks is how many weeks the growth plot spans.
const growthWeeks = 12

// growth counts, per week of the last growthWeeks, the memories and
// observations recorded in it (by when they happened): one count query
// each over the time index, so the plot costs the same at any size.
func (h *Handler) growth(ctx context.Context, now time.Time) (*columnChart, error) {
	end := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, 1)
	var cols []column
	for i := growthWeeks - 1; i >= 0; i-- {
		until := end.AddDate(0, 0, -7*i)
		since := until.AddDate(0, 0, -7)
		anyStatus := "*"
		_, mems, err := h.b.Memories.List(ctx, recall.MemoryFilter{Since: &since, Until: &until, Status: &anyStatus, Newest: true, Limit: 1})
		if err != nil {
			return nil, err
		}
		obs := 0
		if h.b.Timeline != nil {
			if _, obs, err = h.b.Timeline.Timeline(ctx, recall.ObservationFilter{Since: &since, Until: &until, Limit: 1}); err != nil {
				return nil, err
			}
		}
		cols = append(cols, column{Label: since.Format("Jan 2"), A: mems, B: obs})
	}
	return newColumnChart("Recorded per week: memories and observations", "memories", "observations", cols), nil
}
