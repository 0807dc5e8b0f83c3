package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// rollupApp opens a fresh store holding a preference stream of two days.
func rollupApp(t *testing.T, config string) (*app, *bytes.Buffer) {
	t.Helper()
	a, stderr := openTestApp(t, config)
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	var ms []*recall.Memory
	for i, v := range []string{"uses Vim", "uses Vim", "uses Helix", "uses Helix"} {
		ms = append(ms, &recall.Memory{Title: "Editor", Type: "preference", Content: v, OccurredAt: day.Add(time.Duration(9+i*10) * time.Hour)})
	}
	if _, err := a.eng.Import(context.Background(), ms); err != nil {
		t.Fatal(err)
	}
	return a, stderr
}

func TestApp_OpportunisticRollup(t *testing.T) {
	ctx := context.Background()
	t.Run("SpentBudgetResumesNextTime", func(t *testing.T) {
		a, _ := rollupApp(t, "")
		// A budget spent before the first bucket is a run that did
		// nothing yet (a paced upkeep then tries a longer slice), not
		// a failure.
		if rep := a.eng.OpportunisticRollup(ctx, time.Nanosecond); rep == nil || rep.Done {
			t.Fatalf("a 1ns budget: %+v, want a report not done", rep)
		}
		rep := a.eng.OpportunisticRollup(ctx, time.Minute)
		if rep == nil || !rep.Done || rep.Compacted == 0 && rep.Buckets[recall.BucketDaily] == 0 {
			t.Fatalf("report %+v", rep)
		}
		again := a.eng.OpportunisticRollup(ctx, time.Minute)
		if again == nil || len(again.Buckets) != 0 {
			t.Fatalf("second run %+v", again)
		}
	})
	t.Run("ErrorsAreLoggedNotReturned", func(t *testing.T) {
		a, stderr := rollupApp(t, "[rollup]\ntimezone = \"Nowhere/Land\"\n")
		if rep := a.eng.OpportunisticRollup(ctx, time.Second); rep != nil {
			t.Fatalf("report %+v", rep)
		}
		if !strings.Contains(stderr.String(), "rollup skipped: Unknown time zone") {
			t.Fatalf("stderr %q", stderr.String())
		}
	})
}

func TestApp_RollupSection(t *testing.T) {
	a, _ := rollupApp(t, "")
	if _, err := a.eng.RunRollups(context.Background(), recall.RollupRun{Now: time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	sec, err := a.eng.RollupSection().Build(context.Background(), recall.ContextRequest{Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(sec.Items) != 1 || !strings.HasPrefix(sec.Items[0].Text, "editor (preference): uses Helix") {
		t.Fatalf("section %+v", sec)
	}
}

func TestApp_RunRollupsChat(t *testing.T) {
	now := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	t.Run("Reworded", func(t *testing.T) {
		var calls atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := calls.Add(1)
			json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{
				"role": "assistant", "content": fmt.Sprintf("Reworded summary %d.", n)}}}})
		}))
		defer srv.Close()
		a, stderr := rollupApp(t, "[rollup]\nsummarizer = \"chat\"\nchat_endpoint = \""+srv.URL+"\"\nchat_model = \"m\"\n")
		if _, err := a.eng.RunRollups(context.Background(), recall.RollupRun{Now: now}); err != nil {
			t.Fatal(err)
		}
		svc, _ := a.eng.Rollups()
		// Active rollups are reworded; superseded ones are not worth a call.
		rs, err := svc.FindRollups(context.Background(), recall.RollupFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if int(calls.Load()) != len(rs) || stderr.Len() != 0 {
			t.Fatalf("%d calls for %d rollups; stderr %q", calls.Load(), len(rs), stderr.String())
		}
		for _, r := range rs {
			if !strings.HasPrefix(r.Summary, "Reworded summary") {
				t.Fatalf("summary %q", r.Summary)
			}
		}
	})
	t.Run("FailureKeepsDeterministicSummary", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
		}))
		defer srv.Close()
		a, stderr := rollupApp(t, "[rollup]\nsummarizer = \"chat\"\nchat_endpoint = \""+srv.URL+"\"\nchat_model = \"m\"\n")
		if _, err := a.eng.RunRollups(context.Background(), recall.RollupRun{Now: now}); err != nil {
			t.Fatal(err)
		}
		svc, _ := a.eng.Rollups()
		rs, _ := svc.FindRollups(context.Background(), recall.RollupFilter{BucketTypes: []string{recall.BucketWeekly}})
		if len(rs) != 1 || !strings.HasPrefix(rs[0].Summary, "editor (preference): uses Helix") {
			t.Fatalf("rollups %+v", rs)
		}
		if !strings.Contains(stderr.String(), "stay deterministic") {
			t.Fatalf("stderr %q", stderr.String())
		}
	})
}
