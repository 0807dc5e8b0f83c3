package engine

import (
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
)

func TestMaintainRequestCheck(t *testing.T) {
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, bad := range []MaintainRequest{
		{JSON: true, Yes: true, SnoozeDays: 30},
		{Yes: true, Apply: "tr0123456789=pin", SnoozeDays: 30},
		{SnoozeDays: 0},
		{SnoozeDays: 30, BudgetTokens: -1},
	} {
		if _, _, err := bad.Check(at); recall.ErrorCode(err) != recall.EINVALID {
			t.Errorf("%+v: err = %v, want EINVALID", bad, err)
		}
	}
	choices, now, err := MaintainRequest{Apply: "tr0123456789=pin", SnoozeDays: 30}.Check(at)
	if err != nil || len(choices) != 1 || choices[0].ID != "tr0123456789" || !now.Equal(at) {
		t.Errorf("apply: %v %v %v", choices, now, err)
	}
	_, now, err = MaintainRequest{Now: "2026-01-31", SnoozeDays: 7}.Check(at)
	if err != nil || !now.Equal(time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("--now: %v %v", now, err)
	}
	e := &Engine{Config: &Config{}}
	e.Config.Working.BudgetWords = 1500
	if b, u := e.MaintainBudget(0); b != 1500 || u != maintain.UnitWords {
		t.Errorf("words budget = %d %s", b, u)
	}
	if b, u := e.MaintainBudget(900); b != 900 || u != maintain.UnitTokens {
		t.Errorf("token budget = %d %s", b, u)
	}
}
