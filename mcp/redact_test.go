package mcp_test

import (
	"testing"

	"github.com/recall-mem/recall/sqlite"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
)

// TestServer_RedactsEveryField puts a token into the tags and metadata of
// a memory (memory_put, memory_update) and into the key, file and metadata
// of an observation (observation_record): the store keeps none of it.
func TestServer_RedactsEveryField(t *testing.T) {
	const token = "ghp_R7kQ2mXw9LpZ4vB8nC3dF6hJ1sT5yU0aE2gI"
	eng := newEngine(t) // redaction is on by default
	cs := connect(t, eng, nil)
	meta := map[string]any{"cmd": "push " + token, "deep": []any{map[string]any{"v": token}}}
	var put struct{ ID string }
	callOK(t, cs, "memory_put", map[string]any{"content": "notes", "title": "Deploy", "tags": []string{"ops", token},
		"metadata": meta}, &put)
	callOK(t, cs, "memory_update", map[string]any{"id": put.ID, "tags": []string{"x " + token}, "merge_tags": true, "metadata": meta}, nil)
	callOK(t, cs, "observation_record", map[string]any{"type": "command", "content": "z", "key": token, "file": token, "metadata": meta}, nil)
	sqlitetest.AssertRedacted(t, eng.Store.(*sqlite.Store).DB, token)
}
