package sqlite_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// TestInvalidUTF8_Refused: text that is not valid UTF-8 would come back
// from export, the API or MCP as U+FFFD, so every write path refuses it
// with EINVALID and writes nothing.
func TestInvalidUTF8_Refused(t *testing.T) {
	ctx := context.Background()
	bad := "caf\xe9 au lait"
	db := MustOpenDB(t)
	mem := sqlite.NewMemoryService(db)
	obs := sqlite.NewObservationService(db)
	sess := sqlite.NewSessionService(db)

	wantInvalid := func(t *testing.T, what string, err error) {
		t.Helper()
		if recall.ErrorCode(err) != recall.EINVALID {
			t.Fatalf("%s: err %v, want EINVALID", what, err)
		}
	}
	t.Run("Put", func(t *testing.T) {
		for name, m := range map[string]*recall.Memory{
			"content":  {Content: bad},
			"title":    {Title: bad, Content: "ok"},
			"tag":      {Content: "ok", Tags: []string{bad}},
			"context":  {Content: "ok", Context: bad},
			"metadata": {Content: "ok", Metadata: json.RawMessage(`{"k":"` + bad + `"}`)},
		} {
			_, err := mem.PutMemory(ctx, m)
			wantInvalid(t, name, err)
		}
		_, err := mem.ImportMemories(ctx, []*recall.Memory{{Content: "fine"}, {Content: bad}})
		wantInvalid(t, "import", err)
		ms, _, err := mem.FindMemories(ctx, recall.MemoryFilter{})
		if err != nil || len(ms) != 0 {
			t.Fatalf("store holds %d memories (%v), want none", len(ms), err)
		}
	})
	t.Run("Update", func(t *testing.T) {
		res, err := mem.PutMemory(ctx, &recall.Memory{Content: "good text"})
		if err != nil {
			t.Fatal(err)
		}
		s := bad
		_, err = mem.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Content: &s})
		wantInvalid(t, "update", err)
		got, err := mem.FindMemory(ctx, res.Memory.ID, "")
		if err != nil || got.Content != "good text" || got.Version != 1 {
			t.Fatalf("after refused update: %+v %v", got, err)
		}
	})
	t.Run("Observation", func(t *testing.T) {
		err := obs.RecordObservations(ctx, []*recall.Observation{{Type: "command", Content: bad}})
		wantInvalid(t, "observation", err)
		err = obs.RecordObservations(ctx, []*recall.Observation{{Type: "command", Content: "ok", File: bad}})
		wantInvalid(t, "observation file", err)
	})
	t.Run("Session", func(t *testing.T) {
		_, err := sess.StartSession(ctx, &recall.Session{ID: "s1", Agent: bad})
		wantInvalid(t, "start", err)
		if _, err := sess.StartSession(ctx, &recall.Session{ID: "s2"}); err != nil {
			t.Fatal(err)
		}
		_, err = sess.EndSession(ctx, recall.SessionEnd{ID: "s2", Summary: bad})
		wantInvalid(t, "end summary", err)
		_, err = sess.EndSession(ctx, recall.SessionEnd{ID: "s2", Summary: "ok", Pin: bad})
		wantInvalid(t, "end pin", err)
	})
}
