package web

import (
	"net/http"

	"github.com/recall-mem/recall"
)

// maintainPage shows the maintain plan read-only: what the CLI's `recall
// maintain` would propose. Applying actions needs the tier files, which
// the services behind this UI do not reach yet.
func (h *Handler) maintain(w http.ResponseWriter, r *http.Request) {
	if h.b.Maintainer == nil {
		h.fail(w, r, recall.Errorf(recall.ENOTIMPL, "This server does not offer the maintain plan."))
		return
	}
	plan, err := h.b.Maintainer.Plan(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "maintain", "Maintenance", "maintain", plan)
}
