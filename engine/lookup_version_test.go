package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

func TestGetVersionReachesDeletedByID(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	first, later := "Deploys go through staging first.", "Deploys go through a canary."
	res, err := e.Put(ctx, &recall.Memory{Key: "deploy-rule", Content: first})
	if err == nil {
		_, err = e.Update(ctx, res.Memory.ID, recall.MemoryUpdate{Content: &later})
	}
	if err != nil {
		t.Fatal(err)
	}
	if m, err := e.GetVersion(ctx, "deploy-rule", "", 1); err != nil || m.Content != first {
		t.Fatalf("by key: %+v %v", m, err)
	}
	if err := e.Delete(ctx, res.Memory.ID); err != nil {
		t.Fatal(err)
	}
	if m, err := e.GetVersion(ctx, res.Memory.ID, "", 2); err != nil || m.Content != later {
		t.Errorf("deleted, by id: %+v %v", m, err)
	}
	if _, err := e.GetVersion(ctx, "deploy-rule", "", 1); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Errorf("deleted, by key: %v, want ENOTFOUND", err)
	}
}

func TestSearchWithObservations(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	if _, err := e.Put(ctx, &recall.Memory{Key: "db", Content: "We chose SQLite for the store."}); err != nil {
		t.Fatal(err)
	}
	if err := e.Observe(ctx, []*recall.Observation{{At: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Type: "decision", Content: "SQLite it is"}}); err != nil {
		t.Fatal(err)
	}
	q := recall.SearchQuery{Text: "SQLite", Limit: 5, Mode: recall.ModeBM25}
	hits, obs, err := e.SearchWithObservations(ctx, q, false)
	if err != nil || len(hits) == 0 || obs != nil {
		t.Fatalf("memories only: %v %v %v", hits, obs, err)
	}
	hits, obs, err = e.SearchWithObservations(ctx, q, true)
	if err != nil || len(hits) == 0 || len(obs) != 1 || obs[0].Content != "SQLite it is" {
		t.Fatalf("with observations: %v %v %v", hits, obs, err)
	}
	if out := engine.ToHitsJSON(hits); len(out) != len(hits) || out[0].ID != hits[0].Memory.ID {
		t.Errorf("json = %+v", out)
	}
	if out := engine.ToHitsJSON(nil); out == nil || len(out) != 0 {
		t.Errorf("no hits = %#v, want an empty list", out)
	}
}

func TestCheckSearchMode(t *testing.T) {
	q := recall.SearchQuery{Mode: "fuzzy"}
	if err := engine.CheckSearch(&q, "", "", "", ""); recall.ErrorCode(err) != recall.EINVALID {
		t.Errorf("mode fuzzy: %v", err)
	}
	q = recall.SearchQuery{Mode: recall.ModeVector}
	if err := engine.CheckSearch(&q, "2026-01-01", "", "", ""); err != nil || q.Filter.Since == nil {
		t.Errorf("since: %+v %v", q.Filter, err)
	}
}
