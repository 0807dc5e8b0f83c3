package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

func TestEngine_SearchObservations(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	day := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	obs := []*recall.Observation{
		{Type: recall.ObsCommand, Session: "s1", Content: "make deploy failed on the canary", At: day},
		{Type: recall.ObsCommand, Session: "s1", Content: "make deploy passed", At: day.Add(48 * time.Hour)},
		{Type: recall.ObsCommand, Session: "s1", Content: "go test ./...", At: day.Add(72 * time.Hour)},
	}
	if err := e.Observe(ctx, obs); err != nil {
		t.Fatal(err)
	}
	all, err := e.SearchObservations(ctx, "deploy", nil, nil, 10)
	if err != nil || len(all) != 2 || all[0].Content != "make deploy passed" {
		t.Fatalf("SearchObservations(deploy) = %+v, %v: want both deploys, newest first", all, err)
	}
	until := day.Add(24 * time.Hour)
	early, err := e.SearchObservations(ctx, "deploy", nil, &until, 10)
	if err != nil || len(early) != 1 || early[0].Content != "make deploy failed on the canary" {
		t.Errorf("SearchObservations(deploy, until) = %+v, %v: want the first deploy only", early, err)
	}
}
