package engine_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
)

// A pin that names an existing memory pins it, through the engine and
// through the services servers get; any other pin creates a core memory.
func TestEndSessionPinsExisting(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	res, err := e.Put(ctx, &recall.Memory{Key: "deploy-rule", Title: "Deploy rule", Content: "Staging first."})
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.Services().Sessions.EndSession(ctx, recall.SessionEnd{ID: "s1", Summary: "done", Pin: "Deploy rule"})
	if err != nil {
		t.Fatal(err)
	}
	if s.PinID != res.Memory.ID || s.PinCreated {
		t.Fatalf("pin %q created=%v, want the existing %s", s.PinID, s.PinCreated, res.Memory.ID)
	}
	if m, _ := e.Get(ctx, "deploy-rule", ""); !m.Pinned || m.Tier != recall.TierWorking {
		t.Fatalf("deploy-rule not pinned: %+v", m)
	}
	s, err = e.EndSession(ctx, recall.SessionEnd{ID: "s2", Summary: "done", Pin: "Token lifetime"})
	if err != nil || !s.PinCreated || !recall.IsID(s.PinID) {
		t.Fatalf("a new pin: %+v, %v", s, err)
	}
}
