package web

import (
	"net/http"
	"net/url"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
)

type maintainPage struct {
	Plan *recall.MaintainPlan
	// Applied names the action and memory of the last POST (from the
	// redirect's query), when the page is shown after one.
	Applied, AppliedID string
}

// maintainPage shows what `recall maintain` proposes, each proposal with
// the actions the CLI's prompt offers for it, one click each.
func (h *Handler) maintain(w http.ResponseWriter, r *http.Request) {
	if h.b.Maintenance == nil {
		h.fail(w, r, recall.Errorf(recall.ENOTIMPL, "This server does not offer the maintain plan."))
		return
	}
	plan, err := h.b.Maintenance.PlanMaintenance(r.Context(), "", h.b.now())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p := maintainPage{Plan: plan}
	q := r.URL.Query()
	if act := q.Get("applied"); knownAction(act) || act == "recommended" {
		p.Applied, p.AppliedID = act, q.Get("id")
	}
	h.render(w, r, http.StatusOK, "maintain", "Maintenance", "maintain", p)
}

// knownAction reports whether act is an action the maintenance page and
// the memory page offer.
func knownAction(act string) bool {
	switch act {
	case maintain.ActKeep, maintain.ActPin, maintain.ActUnpin, maintain.ActSnooze, maintain.ActDemote,
		maintain.ActArchive, maintain.ActSupersede, maintain.ActVerify:
		return true
	}
	return false
}

// maintainApply is `recall maintain --apply ID=ACTION` for one entry, or
// `recall maintain --yes` (every recommended action) when the form asks
// for recommended: reconcile the files and the store, plan, apply, all
// under the project lock.
func (h *Handler) maintainApply(w http.ResponseWriter, r *http.Request) {
	if h.b.Maintenance == nil {
		h.fail(w, r, recall.Errorf(recall.ENOTIMPL, "This server does not apply maintenance."))
		return
	}
	act, id := r.PostFormValue("action"), r.PostFormValue("id")
	var choices []maintain.Choice
	recommended := act == "recommended"
	if !recommended {
		if !knownAction(act) || !recall.IsID(id) {
			h.fail(w, r, recall.Errorf(recall.EINVALID, "Pick an entry and one of its actions on the maintenance page."))
			return
		}
		choices = []maintain.Choice{{ID: id, Action: act}}
	}
	if _, err := h.b.Maintenance.ApplyMaintenance(r.Context(), "", h.b.now(), choices, recommended, 0); err != nil {
		h.fail(w, r, err)
		return
	}
	h.changed()
	http.Redirect(w, r, "/maintain?"+url.Values{"applied": {act}, "id": {id}}.Encode(), http.StatusSeeOther)
}
