package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/recall-mem/recall"
)

// pageSize is how many memories or hits one page lists.
const pageSize = 50

// memoryQuery is the Memories page's form: a search and its filters.
type memoryQuery struct {
	Text, Mode, Collection, Tag, Type, Tier string
	Offset                                  int
}

func parseMemoryQuery(v url.Values) memoryQuery {
	q := memoryQuery{
		Text: strings.TrimSpace(v.Get("q")), Mode: v.Get("mode"),
		Collection: strings.TrimSpace(v.Get("collection")), Tag: strings.TrimSpace(v.Get("tag")),
		Type: strings.TrimSpace(v.Get("type")), Tier: v.Get("tier"),
	}
	q.Offset, _ = strconv.Atoi(v.Get("offset"))
	q.Offset = max(0, q.Offset)
	return q
}

func (q memoryQuery) filter() recall.MemoryFilter {
	var f recall.MemoryFilter
	set := func(p **string, s string) {
		if s != "" {
			*p = &s
		}
	}
	set(&f.Collection, q.Collection)
	set(&f.Type, q.Type)
	set(&f.Tier, q.Tier)
	if q.Tag != "" {
		f.Fields = map[string][]string{"tags": {q.Tag}}
	}
	return f
}

// link is the address of this query at another offset.
func (q memoryQuery) link(offset int) string {
	v := url.Values{}
	for k, s := range map[string]string{"q": q.Text, "mode": q.Mode, "collection": q.Collection, "tag": q.Tag, "type": q.Type, "tier": q.Tier} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if offset > 0 {
		v.Set("offset", strconv.Itoa(offset))
	}
	return "/memories?" + v.Encode()
}

type memoriesPage struct {
	Q          memoryQuery
	Hits       []*recall.SearchHit // a search
	List       []*recall.Memory    // a listing, when there is no search text
	Total      int
	Prev, Next string
	Modes      []string
	Tiers      []string
}

func (h *Handler) memories(w http.ResponseWriter, r *http.Request) {
	q := parseMemoryQuery(r.URL.Query())
	p := memoriesPage{Q: q, Modes: []string{recall.ModeHybrid, recall.ModeBM25, recall.ModeVector},
		Tiers: []string{recall.TierWorking, recall.TierRegister, recall.TierArchive}}
	if q.Mode != "" && !slices.Contains(p.Modes, q.Mode) {
		h.fail(w, r, recall.Errorf(recall.EINVALID, "Unknown search mode %q: use hybrid, bm25 or vector.", q.Mode))
		return
	}
	f := q.filter()
	if q.Text != "" && h.b.Search != nil {
		// Explanations are cheap next to the search itself; the page
		// folds them away until asked.
		hits, err := h.b.Search.Search(r.Context(), recall.SearchQuery{Text: q.Text, Filter: f, Mode: q.Mode, Limit: pageSize, Now: h.b.now(), Explain: true})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		p.Hits, p.Total = hits, len(hits)
	} else {
		f.Offset, f.Limit = q.Offset, pageSize
		list, total, err := h.b.Memories.List(r.Context(), f)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		p.List, p.Total = list, total
		if q.Offset > 0 {
			p.Prev = q.link(max(0, q.Offset-pageSize))
		}
		if q.Offset+len(list) < total {
			p.Next = q.link(q.Offset + pageSize)
		}
	}
	h.render(w, r, http.StatusOK, "memories", "Memories", "memories", p)
}
