package sqlite_test

import (
	"context"
	"encoding/json"
	"path/filepath"
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

// TestDB_Redactor_EveryField writes a secret into every free-text field of
// a memory (title, content, context, category, tags, metadata values at
// any depth) and of an observation (content, file, key, metadata) on every
// write path of the store: put, update, import and record. No copy of it
// may reach the store, and the counts of what was removed are kept.
func TestDB_Redactor_EveryField(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := sqlite.NewDB(filepath.Join(dir, "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	db.Redactor = redactAll{}
	meta := json.RawMessage(`{"description":"export hunter2","n":12345678901234567890,"deep":{"list":["ok","hunter2"]}}`)
	secretMemory := func(title string) *recall.Memory {
		return &recall.Memory{Title: title + " hunter2", Content: "c", Context: "hunter2", Category: "hunter2",
			Tags: []string{"ops", "hunter2"}, Metadata: meta}
	}
	mem := sqlite.NewMemoryService(db)
	put, err := mem.PutMemory(ctx, secretMemory("put"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(put.Memory.Metadata), "12345678901234567890") {
		t.Errorf("a number in metadata lost its digits: %s", put.Memory.Metadata)
	}
	if want := `"redacted":{"password":6}`; !strings.Contains(string(put.Memory.Metadata), want) {
		t.Errorf("metadata %s, want counts %s", put.Memory.Metadata, want)
	}
	tags := []string{"hunter2 again"}
	updMeta := json.RawMessage(`{"note":"hunter2"}`)
	if _, err := mem.UpdateMemory(ctx, put.Memory.ID, recall.MemoryUpdate{Tags: &tags, MergeTags: true, Metadata: &updMeta}); err != nil {
		t.Fatal(err)
	}
	caller := secretMemory("import")
	if _, err := mem.ImportMemories(ctx, []*recall.Memory{caller}); err != nil {
		t.Fatal(err)
	}
	if caller.Tags[1] != "hunter2" {
		t.Errorf("the caller's tags were changed in place: %q", caller.Tags)
	}
	obs := &recall.Observation{Type: "command", Content: "x", File: "hunter2.txt", Key: "hunter2", Metadata: meta}
	if err := sqlite.NewObservationService(db).RecordObservations(ctx, []*recall.Observation{obs}); err != nil {
		t.Fatal(err)
	}
	got, _, err := mem.FindMemories(ctx, recall.MemoryFilter{})
	if err != nil || len(got) != 2 {
		t.Fatalf("memories %v, %v", got, err)
	}
	for _, m := range got {
		if b, _ := json.Marshal(m); strings.Contains(string(b), "hunter2") {
			t.Errorf("memory holds the secret: %s", b)
		}
	}
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if storeHolds(t, dir, "hunter2") {
		t.Fatal("the secret reached the store")
	}
}
