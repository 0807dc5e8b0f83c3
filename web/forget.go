package web

import (
	"net/http"
	"net/url"
	"time"

	"github.com/recall-mem/recall"
)

type forgetPage struct {
	Policy   recall.RetentionPolicy
	Sweep    *recall.SweepReport // what a sweep would remove now
	Form     url.Values          // the purge criteria as entered
	Plan     *recall.PurgeReport // the dry run, when criteria were given
	Purged   *recall.PurgeReport // what a confirmed purge removed
	Problems string
}

// purgeSample is how many matches the dry run lists.
const purgeSample = 20

// purgeFields are the form fields that make purge criteria.
var purgeFields = []string{"search", "match", "type", "session", "project", "before", "id", "memories"}

// forget shows the retention policy, what a sweep would remove now and,
// when criteria are given, the purge dry run: what would go, with a
// button that purges exactly that.
func (h *Handler) forget(w http.ResponseWriter, r *http.Request) {
	if h.b.Forgetting == nil {
		h.fail(w, r, recall.Errorf(recall.ENOTIMPL, "This server does not offer forgetting."))
		return
	}
	ctx := r.Context()
	p := forgetPage{Policy: h.b.Forgetting.RetentionPolicy(), Form: r.URL.Query()}
	var err error
	if p.Sweep, err = h.b.Forgetting.SweepAt(ctx, h.b.now(), true); err != nil {
		h.fail(w, r, err)
		return
	}
	if hasCriteria(p.Form) {
		c, err := purgeCriteria(p.Form)
		if err == nil {
			p.Plan, err = h.b.Forgetting.PlanPurge(ctx, c, purgeSample)
		}
		if err != nil {
			if recall.ErrorCode(err) != recall.EINVALID {
				h.fail(w, r, err)
				return
			}
			p.Problems = recall.ErrorMessage(err)
		}
	}
	h.render(w, r, http.StatusOK, "forget", "Forgetting", "forget", p)
}

// purge deletes what the criteria match, completely, after the dry run
// showed it: `recall purge --confirm`.
func (h *Handler) purge(w http.ResponseWriter, r *http.Request) {
	if h.b.Forgetting == nil {
		h.fail(w, r, recall.Errorf(recall.ENOTIMPL, "This server does not offer forgetting."))
		return
	}
	if err := r.ParseForm(); err != nil {
		h.fail(w, r, recall.Errorf(recall.EINVALID, "Cannot read the form: %v", err))
		return
	}
	form := url.Values{}
	for _, k := range purgeFields {
		if v := r.PostForm.Get(k); v != "" {
			form.Set(k, v)
		}
	}
	c, err := purgeCriteria(form)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	rep, err := h.b.Forgetting.Purge(r.Context(), c)
	h.changed()
	if rep == nil && err != nil {
		h.fail(w, r, err)
		return
	}
	p := forgetPage{Policy: h.b.Forgetting.RetentionPolicy(), Purged: rep}
	if err != nil {
		// The store purged; the markdown views could not be rewritten.
		p.Problems = recall.ErrorMessage(err)
	}
	if p.Sweep, err = h.b.Forgetting.SweepAt(r.Context(), h.b.now(), true); err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "forget", "Forgetting", "forget", p)
}

func hasCriteria(q url.Values) bool {
	for _, k := range purgeFields {
		if k != "match" && k != "memories" && q.Get(k) != "" {
			return true
		}
	}
	return false
}

// purgeCriteria reads the purge form as `recall purge` reads its flags.
func purgeCriteria(q url.Values) (recall.PurgeCriteria, error) {
	c := recall.PurgeCriteria{Search: q.Get("search"), Match: q.Get("match"), Type: q.Get("type"),
		Session: q.Get("session"), Project: q.Get("project"), Memories: q.Get("memories") != ""}
	if c.Match == recall.MatchWords {
		c.Match = ""
	}
	if id := q.Get("id"); id != "" {
		if c.Memories {
			c.MemoryID = id
		} else {
			var n int64
			for _, ch := range id {
				if ch < '0' || ch > '9' || n > 1<<50 {
					return c, recall.Errorf(recall.EINVALID, "An observation id is a number; for a memory id, tick memories.")
				}
				n = n*10 + int64(ch-'0')
			}
			c.ObservationID = n
		}
	}
	if b := q.Get("before"); b != "" {
		t, err := time.Parse("2006-01-02", b)
		if err != nil {
			return c, recall.Errorf(recall.EINVALID, "Before is a date: YYYY-MM-DD.")
		}
		c.Before = &t
	}
	return c, c.Validate()
}
