package engine

import (
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

func TestPurgeRequestCriteria(t *testing.T) {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for name, r := range map[string]PurgeRequest{
		"no filter":    {},
		"empty search": {SearchSet: true},
	} {
		if _, err := r.Criteria(now); recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("%s: err = %v, want EINVALID", name, err)
		}
	}
	if _, err := (PurgeRequest{Before: "not a date"}).Criteria(now); err == nil {
		t.Error("a malformed --before was accepted")
	}
	cr, err := PurgeRequest{ID: "42", IDSet: true, Before: "2026-01-01"}.Criteria(now)
	if err != nil || cr.ObservationID != 42 || cr.Before == nil || cr.Before.Year() != 2026 {
		t.Errorf("id and before: %+v %v", cr, err)
	}
	cr, err = PurgeRequest{ID: "tr0123456789", IDSet: true, Memories: true}.Criteria(now)
	if err != nil || cr.MemoryID != "tr0123456789" {
		t.Errorf("memory id: %+v %v", cr, err)
	}
}

func TestWiderError(t *testing.T) {
	if err := WiderError(&recall.PurgeReport{}); err != nil {
		t.Errorf("no wider rule: %v", err)
	}
	rep := &recall.PurgeReport{Wider: &recall.PurgeWider{Match: "prefix", Matches: 1}}
	err := WiderError(rep)
	if recall.ErrorCode(err) != recall.ENOTFOUND || recall.ErrorMessage(err) != "--search matched nothing under its --match rule, but --match prefix matches 1 entry: run again with --match prefix to see them." {
		t.Errorf("wider: %v", err)
	}
}
