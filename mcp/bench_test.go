package mcp_test

import (
	"context"
	"fmt"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/mcp"
)

// BenchmarkServer_Tools measures a round trip through the SDK's in-memory
// transport to a real store of 1,000 memories: the cost MCP adds on top of
// the store, per tool.
func BenchmarkServer_Tools(b *testing.B) {
	ctx := context.Background()
	eng := newEngine(b)
	ms := make([]*recall.Memory, 1000)
	for i := range ms {
		ms[i] = &recall.Memory{ID: fmt.Sprintf("tr%010x", i+1), Key: fmt.Sprintf("note-%d", i), Title: fmt.Sprintf("Note %d", i),
			Content: fmt.Sprintf("Deploy step %d: run the migration for service %d before the canary.", i, i%37), Tags: []string{fmt.Sprintf("t%d", i%10)}}
	}
	if _, err := eng.Import(ctx, ms); err != nil {
		b.Fatal(err)
	}
	server := mcp.NewServer(eng, mcp.Options{})
	ct, st := sdk.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"memory_get", map[string]any{"id": "note-500"}},
		{"memory_search", map[string]any{"query": "canary migration service 12", "limit": 10}},
		{"memory_list", map[string]any{"filter": []string{"tags=t3"}, "limit": 20}},
	} {
		b.Run("mcp/"+c.tool, func(b *testing.B) {
			for b.Loop() {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil || res.IsError {
					b.Fatalf("%v %v", err, res)
				}
			}
		})
	}
	// The same work without MCP, for comparison.
	b.Run("store/get", func(b *testing.B) {
		for b.Loop() {
			if _, err := eng.Get(ctx, "note-500", ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("store/search", func(b *testing.B) {
		for b.Loop() {
			if _, err := eng.Search(ctx, recall.SearchQuery{Text: "canary migration service 12", Limit: 10}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("store/list", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := eng.List(ctx, recall.MemoryFilter{Fields: map[string][]string{"tags": {"t3"}}, Limit: 20}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
