package web

import (
	"net/http"
	"slices"

	"github.com/recall-mem/recall"
)

type rollupsPage struct {
	Tiers   []recall.TierStat
	Bucket  string
	Buckets []string
	List    []*recall.Rollup
}

// rollupsShown is how many rollups a tier's listing shows.
const rollupsShown = 50

// rollups shows `recall tiers` and the newest rollups of one bucket type
// (?bucket=, by default the finest that has any).
func (h *Handler) rollups(w http.ResponseWriter, r *http.Request) {
	if h.b.Rollups == nil {
		h.fail(w, r, recall.Errorf(recall.ENOTIMPL, "This server does not offer rollups."))
		return
	}
	ctx := r.Context()
	// The tier statistics are read on every view, as the listing below:
	// the stores read them from indexes (SQLite: migration 0019).
	tiers, err := h.b.Rollups.Tiers(ctx)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p := rollupsPage{Tiers: tiers, Buckets: recall.BucketTypes, Bucket: r.URL.Query().Get("bucket")}
	if p.Bucket == "" {
		for _, t := range tiers {
			if t.Tier != "raw" && t.Count > 0 && (p.Bucket == "" || slices.Index(recall.BucketTypes, t.Kind) < slices.Index(recall.BucketTypes, p.Bucket)) {
				p.Bucket = t.Kind
			}
		}
	}
	if p.Bucket != "" {
		if err := recall.ValidBucketType(p.Bucket); err != nil {
			h.fail(w, r, err)
			return
		}
		if p.List, err = h.b.Rollups.ListRollups(ctx, recall.RollupFilter{BucketTypes: []string{p.Bucket}, Limit: rollupsShown}); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	h.render(w, r, http.StatusOK, "rollups", "Rollups", "rollups", p)
}

// rollup shows one rollup with its sources, each linking to its page: a
// memory, a finer rollup, or the session of an observation.
func (h *Handler) rollup(w http.ResponseWriter, r *http.Request) {
	if h.b.Rollups == nil {
		h.fail(w, r, recall.Errorf(recall.ENOTIMPL, "This server does not offer rollups."))
		return
	}
	ru, err := h.b.Rollups.ExplainRollup(r.Context(), r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "rollup", ru.BucketType+" rollup of "+ru.BucketStart.UTC().Format("2006-01-02 15:04"), "rollups", ru)
}
