package engine

import (
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/forget"
	"github.com/recall-mem/recall/prose"
)

// PurgeRequest is purge's filters as typed. IDSet and SearchSet say the
// flag was given, even empty; OlderThan is nil unless it was.
type PurgeRequest struct {
	Before, Project, Session, ID, Type, Search, Match string
	OlderThan                                         *int
	IDSet, SearchSet, Memories                        bool
}

// Criteria turns the request into checked criteria at now. Every mistake
// in them is a usage error (EINVALID), found before the store is opened.
func (r PurgeRequest) Criteria(now time.Time) (recall.PurgeCriteria, error) {
	cr := recall.PurgeCriteria{Project: r.Project, Session: r.Session, Type: r.Type, Search: r.Search, Match: r.Match, Memories: r.Memories, OlderThanDays: r.OlderThan}
	if r.Before != "" {
		t, err := ParseTime("before", r.Before)
		if err != nil {
			return cr, err
		}
		cr.Before = &t
	}
	if r.IDSet {
		var err error
		if cr.ObservationID, cr.MemoryID, err = forget.ParseID(r.ID); err != nil {
			return cr, err
		}
	}
	if r.SearchSet && cr.Search == "" {
		cr.Search = " " // an explicitly empty search is refused, not ignored
	}
	if err := forget.Resolve(&cr, now); err != nil {
		return cr, recall.Errorf(recall.EINVALID, "%s", recall.ErrorMessage(err))
	}
	return cr, nil
}

// WiderError is the data error for a search that matched nothing under
// its rule while a wider rule matches something: a purge must not quietly
// miss what the user typed.
func WiderError(rep *recall.PurgeReport) error {
	if rep.Wider == nil {
		return nil
	}
	return recall.Errorf(recall.ENOTFOUND, "--search matched nothing under its --match rule, but --match %s matches %s: run again with --match %s to see them.",
		rep.Wider.Match, prose.Plural(rep.Wider.Matches, "entry", "entries"), rep.Wider.Match)
}
