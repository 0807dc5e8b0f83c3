package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
)

type memoryPage struct {
	M        *recall.Memory
	Deleted  bool // M is the last state of a deleted memory
	Versions []*recall.MemoryVersion
	From, To int
	Diff     []diffLine
	// Done is the entry action just carried out (from the redirect's
	// query), and Moved the files its line moved between.
	Done      string
	MovedFrom string
	MovedTo   string
}

// memory shows one memory, its history and, between two of its versions
// (?from=N&to=M, by default the last two), a diff.
func (h *Handler) memory(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	p := memoryPage{}
	m, err := h.b.Memories.Get(r.Context(), id, "")
	if err != nil && recall.ErrorCode(err) != recall.ENOTFOUND {
		h.fail(w, r, err)
		return
	}
	key := id
	if m != nil {
		key = m.ID
	}
	p.Versions, err = h.b.Memories.Versions(r.Context(), key)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if m == nil {
		// Deleted: its versions remain until purged, and it can be restored.
		p.Deleted = true
		for i := len(p.Versions) - 1; i >= 0 && m == nil; i-- {
			m = p.Versions[i].Memory
		}
		if m == nil {
			h.fail(w, r, recall.Errorf(recall.ENOTFOUND, "Memory %s not found.", id))
			return
		}
	}
	p.M = m
	if q := r.URL.Query(); knownAction(q.Get("done")) || q.Get("done") == "review" {
		p.Done, p.MovedFrom, p.MovedTo = q.Get("done"), q.Get("from"), q.Get("file")
	}
	if n := len(p.Versions); n >= 2 {
		p.From, p.To = p.Versions[n-2].Version, p.Versions[n-1].Version
		if v, err := strconv.Atoi(r.URL.Query().Get("from")); err == nil {
			p.From = v
		}
		if v, err := strconv.Atoi(r.URL.Query().Get("to")); err == nil {
			p.To = v
		}
		a, b := findVersion(p.Versions, p.From), findVersion(p.Versions, p.To)
		if a == nil || b == nil {
			h.fail(w, r, recall.Errorf(recall.ENOTFOUND, "Memory %s has no version %d or %d: pick two from its history.", m.ID, p.From, p.To))
			return
		}
		p.Diff = versionDiff(a, b)
	}
	h.render(w, r, http.StatusOK, "memory", memoryTitle(m), "memories", p)
}

func findVersion(vs []*recall.MemoryVersion, n int) *recall.MemoryVersion {
	for _, v := range vs {
		if v.Version == n {
			return v
		}
	}
	return nil
}

func memoryTitle(m *recall.Memory) string {
	if m.Title != "" {
		return m.Title
	}
	if m.Key != "" {
		return m.Key
	}
	return excerpt(m.Content, 60)
}

func (h *Handler) editForm(w http.ResponseWriter, r *http.Request) {
	m, err := h.b.Memories.Get(r.Context(), r.PathValue("id"), "")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "edit", "Edit "+memoryTitle(m), "memories", m)
}

// edit writes the form's fields as a new version; unchanged fields are
// left out of the update so the version records only what changed.
func (h *Handler) edit(w http.ResponseWriter, r *http.Request) {
	m, err := h.b.Memories.Get(r.Context(), r.PathValue("id"), "")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var upd recall.MemoryUpdate
	changed := false
	if v := r.PostFormValue("title"); v != m.Title {
		upd.Title, changed = &v, true
	}
	// Browsers send textarea lines with CRLF; the store keeps LF.
	if v := strings.ReplaceAll(r.PostFormValue("content"), "\r\n", "\n"); v != m.Content {
		upd.Content, changed = &v, true
	}
	if v := r.PostFormValue("type"); v != m.Type {
		upd.Type, changed = &v, true
	}
	if tags := splitTags(r.PostFormValue("tags")); strings.Join(tags, ",") != strings.Join(m.Tags, ",") {
		upd.Tags, changed = &tags, true
	}
	if changed {
		if _, err := h.b.Memories.Update(r.Context(), m.ID, upd); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	h.changed()
	http.Redirect(w, r, "/memories/"+url.PathEscape(m.ID), http.StatusSeeOther)
}

// splitTags reads a comma-separated tag list, dropping blanks.
func splitTags(s string) []string {
	tags := []string{}
	for t := range strings.SplitSeq(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	return tags
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) {
	if err := h.b.Memories.Delete(r.Context(), r.PathValue("id")); err != nil {
		h.fail(w, r, err)
		return
	}
	h.changed()
	http.Redirect(w, r, "/memories", http.StatusSeeOther)
}

// act carries out one entry action on a memory, as `recall pin` (unpin,
// snooze, demote, archive, supersede, review) does: a managed entry's line
// moves between the project's files and the store changes with it.
func (h *Handler) act(w http.ResponseWriter, r *http.Request) {
	if h.b.Entries == nil {
		h.fail(w, r, recall.Errorf(recall.ENOTIMPL, "This server does not offer entry actions."))
		return
	}
	// The CLI's command is review; its action is verify.
	act, verb := r.PostFormValue("action"), r.PostFormValue("action")
	if act == "review" {
		act = maintain.ActVerify
	} else if act == maintain.ActVerify {
		verb = "review"
	}
	days := recall.DefaultSnoozeDays
	if v := r.PostFormValue("days"); act == maintain.ActSnooze && v != "" {
		var err error
		if days, err = strconv.Atoi(v); err != nil || days <= 0 {
			h.fail(w, r, recall.Errorf(recall.EINVALID, "Snooze for a positive number of days."))
			return
		}
	}
	if !knownAction(act) || act == maintain.ActKeep {
		h.fail(w, r, recall.Errorf(recall.EINVALID, "Unknown action %q: use pin, unpin, snooze, demote, archive, supersede or review.", verb))
		return
	}
	done, err := h.b.Entries.EntryAction(r.Context(), "", r.PathValue("id"), act, verb, days, h.b.now())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	q := url.Values{"done": {verb}}
	if done.From != "" {
		q.Set("from", done.From)
		q.Set("file", done.File)
	}
	h.changed()
	http.Redirect(w, r, "/memories/"+url.PathEscape(done.ID)+"?"+q.Encode(), http.StatusSeeOther)
}

func (h *Handler) restore(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PostFormValue("version"))
	if err != nil {
		h.fail(w, r, recall.Errorf(recall.EINVALID, "Pick a version number to restore."))
		return
	}
	m, err := h.b.Memories.Restore(r.Context(), r.PathValue("id"), n)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.changed()
	http.Redirect(w, r, "/memories/"+url.PathEscape(m.ID), http.StatusSeeOther)
}
