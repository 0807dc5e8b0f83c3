package httpapi_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
	"github.com/recall-mem/recall/sqlite"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
)

// TestServer_RedactsEveryField sends a token in the tags, category,
// context and metadata of a memory (put, update, import) and in the key,
// file and metadata of an observation over REST: what the store keeps
// holds none of it.
func TestServer_RedactsEveryField(t *testing.T) {
	ctx := context.Background()
	const token = "ghp_R7kQ2mXw9LpZ4vB8nC3dF6hJ1sT5yU0aE2gI"
	eng := openEngine(t) // [redact] is on by default
	_, c := newServer(t, &httpapi.Server{Engine: eng, Loopback: true})
	meta := json.RawMessage(`{"cmd":"push ` + token + `","deep":[{"v":"` + token + `"}]}`)
	put, err := c.PutMemory(ctx, &recall.Memory{Title: "Deploy", Content: "notes", Tags: []string{"ops", token}, Category: token, Context: token, Metadata: meta})
	if err != nil {
		t.Fatal(err)
	}
	tags := []string{"x " + token}
	if _, err := c.UpdateMemory(ctx, put.Memory.ID, recall.MemoryUpdate{Tags: &tags, MergeTags: true, Metadata: &meta}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ImportMemories(ctx, []*recall.Memory{{Title: "Imported", Content: "y", Tags: []string{token}, Metadata: meta}}); err != nil {
		t.Fatal(err)
	}
	if err := c.RecordObservations(ctx, []*recall.Observation{{Type: "command", Content: "z", Key: token, File: token, Metadata: meta}}); err != nil {
		t.Fatal(err)
	}
	sqlitetest.AssertRedacted(t, eng.Store.(*sqlite.Store).DB, token)
}
