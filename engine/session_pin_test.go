package engine_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
)

// A pin that names an existing memory pins it, through the engine and
// as every interface calls it; any other pin creates a core memory.
func TestEndSessionPinsExisting(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	res, err := e.Put(ctx, &recall.Memory{Key: "deploy-rule", Title: "Deploy rule", Content: "Staging first."})
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.EndSession(ctx, recall.SessionEnd{ID: "s1", Summary: "done", Pin: "Deploy rule"})
	if err != nil {
		t.Fatal(err)
	}
	if s.PinID != res.Memory.ID || s.PinCreated {
		t.Fatalf("pin %q created=%v, want the existing %s", s.PinID, s.PinCreated, res.Memory.ID)
	}
	if m, _ := e.Get(ctx, "deploy-rule", ""); !m.Pinned || m.Tier != recall.TierWorking {
		t.Fatalf("deploy-rule not pinned: %+v", m)
	}
	other, err := e.Put(ctx, &recall.Memory{Key: "ci", Title: "Build pipeline", Content: "CI runs on every push."})
	if err != nil {
		t.Fatal(err)
	}
	if s, err = e.EndSession(ctx, recall.SessionEnd{ID: "s3", Summary: "done", Pin: "build pipeline"}); err != nil || s.PinID != other.Memory.ID || s.PinCreated {
		t.Fatalf("a pin naming a title whose key differs: %+v, %v; want %s", s, err, other.Memory.ID)
	}
	if _, err := e.EndSession(ctx, recall.SessionEnd{ID: "s4", Summary: "again", Pin: "deploy-rule"}); recall.ErrorCode(err) != recall.ECONFLICT {
		t.Fatalf("pinning a pinned memory again: %v, want ECONFLICT", err)
	}
	s, err = e.EndSession(ctx, recall.SessionEnd{ID: "s2", Summary: "done", Pin: "Token lifetime"})
	if err != nil || !s.PinCreated || !recall.IsID(s.PinID) {
		t.Fatalf("a new pin: %+v, %v", s, err)
	}
}
