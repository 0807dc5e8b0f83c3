package engine

import (
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

func TestContextText(t *testing.T) {
	m := &recall.Memory{ID: "tr0123456789", Key: "deploy-rule", CreatedBy: "ana", Context: "After the outage",
		Tags: []string{"deploy", "ci"}, Related: []string{"tr9876543210"}, Content: "Staging first.",
		CreatedAt: time.Date(2026, 3, 1, 9, 0, 0, 0, time.FixedZone("CET", 3600))}
	want := "# deploy-rule\nID: tr0123456789\nCreated: 2026-03-01T08:00:00Z by ana\nContext: After the outage\nTags: deploy, ci\nRelated: tr9876543210\n\nStaging first.\n"
	if got := ContextText(m); got != want {
		t.Errorf("ContextText =\n%q\nwant\n%q", got, want)
	}
	if got, want := ContextText(&recall.Memory{ID: "tr1", Content: "x\n"}), "# tr1\nID: tr1\nCreated: -\n\nx\n"; got != want {
		t.Errorf("bare memory = %q, want %q", got, want)
	}
}
