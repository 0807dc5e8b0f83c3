package engine_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/engine/enginetest"
)

func TestObservationManual(t *testing.T) {
	in := engine.ObservationJSON{Type: "decision", Key: "db"}
	if _, err := in.Manual(" \n", "", ""); recall.ErrorCode(err) != recall.EINVALID {
		t.Errorf("empty text: %v", err)
	}
	if _, err := in.Manual("x", "", "[1]"); err == nil {
		t.Error("metadata that is not an object was accepted")
	}
	o, err := in.Manual("We chose SQLite", "2026-01-31T10:00:00Z", `{"why":"local"}`)
	if err != nil || o.Content != "We chose SQLite" || o.Key != "db" || !o.At.Equal(time.Date(2026, 1, 31, 10, 0, 0, 0, time.UTC)) || string(o.Metadata) != `{"why":"local"}` {
		t.Errorf("manual = %+v, %v", o, err)
	}
}

func TestTimelineJSONOldestFirstAndBounds(t *testing.T) {
	ctx := context.Background()
	e := enginetest.Open(t, testParts(), io.Discard)
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	var obs []*recall.Observation
	for i, text := range []string{"first", "second", "third"} {
		obs = append(obs, &recall.Observation{At: day.Add(time.Duration(i) * time.Hour), Type: "note", Session: "s1", Content: text})
	}
	if err := e.Observe(ctx, obs); err != nil {
		t.Fatal(err)
	}
	f := recall.ObservationFilter{Desc: true, Limit: 2}
	if err := engine.ApplyObservationTimes(&f, "2026-03-01", "", day); err != nil || f.Since == nil || f.Until != nil {
		t.Fatalf("bounds: %+v %v", f, err)
	}
	if err := engine.ApplyObservationTimes(&f, "", "soon-ish", day); err == nil {
		t.Error("a malformed --until was accepted")
	}
	out, total, err := e.TimelineJSON(ctx, f)
	if err != nil || total != 3 || len(out) != 2 || out[0].Content != "second" || out[1].Content != "third" {
		t.Errorf("timeline = %+v, total %d, %v", out, total, err)
	}
}

func TestStartAndEndOpenSession(t *testing.T) {
	ctx := context.Background()
	e := enginetest.Open(t, testParts(), io.Discard)
	t.Setenv("RECALL_AGENT", "tester")
	if _, err := e.StartSessionAt(ctx, &recall.Session{ID: "s1"}, "yesterday-ish"); err == nil {
		t.Error("a malformed --at was accepted")
	}
	s := &recall.Session{ID: "s1"}
	if _, err := e.StartSessionAt(ctx, s, "2026-03-01T09:00:00Z"); err != nil || s.Agent != "tester" {
		t.Fatalf("start: agent %q, %v", s.Agent, err)
	}
	got, warning, err := e.EndOpenSession(ctx, recall.SessionEnd{Summary: "done"})
	if err != nil || warning != "" || got.ID != "s1" {
		t.Fatalf("end open: %+v %q %v", got, warning, err)
	}
	got, warning, err = e.EndOpenSession(ctx, recall.SessionEnd{Summary: "again"})
	if err != nil || warning == "" || got.ID == "s1" {
		t.Errorf("end with none open: %+v %q %v", got, warning, err)
	}
}
