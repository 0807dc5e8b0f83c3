package sqlite_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// redactAll is a redactor that replaces the word "hunter2".
type redactAll struct{}

func (redactAll) Redact(s string) (string, map[string]int) {
	n := strings.Count(s, "hunter2")
	if n == 0 {
		return s, nil
	}
	return strings.ReplaceAll(s, "hunter2", "[REDACTED:password]"), map[string]int{"password": n}
}

// TestDB_Redactor checks that observations and memories are redacted
// before they are written and that the counts land in their metadata.
func TestDB_Redactor(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	db.Redactor = redactAll{}
	s := sqlite.NewObservationService(db)
	o := &recall.Observation{Type: recall.ObsCommand, Content: "login hunter2 hunter2", Metadata: json.RawMessage(`{"tool_use_id":"t1"}`)}
	if err := s.RecordObservations(ctx, []*recall.Observation{o}); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.FindObservations(ctx, recall.ObservationFilter{})
	if err != nil || len(got) != 1 {
		t.Fatal(got, err)
	}
	if strings.Contains(got[0].Content, "hunter2") {
		t.Errorf("secret stored: %q", got[0].Content)
	}
	if want := `{"redacted":{"password":2},"tool_use_id":"t1"}`; string(got[0].Metadata) != want {
		t.Errorf("metadata %s, want %s", got[0].Metadata, want)
	}
	mem := sqlite.NewMemoryService(db)
	res, err := mem.PutMemory(ctx, &recall.Memory{Title: "Login", Content: "user admin, password hunter2"})
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Memory; strings.Contains(m.Content, "hunter2") || string(m.Metadata) != `{"redacted":{"password":1}}` {
		t.Errorf("memory stored as %q with metadata %s", m.Content, m.Metadata)
	}
	orphans, err := db.Orphans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for kind, n := range orphans {
		if n != 0 {
			t.Errorf("%s: %d", kind, n)
		}
	}
	if err := db.QuickCheck(ctx); err != nil {
		t.Error(err)
	}
}
