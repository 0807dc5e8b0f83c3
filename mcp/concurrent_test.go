package mcp_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall/mcp"
)

// TestServer_ConcurrentCalls runs several tools at once against one
// engine over streamable HTTP, as agents sharing `recall serve` do: the
// reads, the writes and the project's file actions (which take the
// project lock) must not race (run with -race) and must all succeed.
func TestServer_ConcurrentCalls(t *testing.T) {
	ctx := context.Background()
	eng := newEngine(t)
	ts := httptest.NewServer(mcp.HTTPHandler(mcp.NewServer(eng, mcp.Options{}), nil))
	t.Cleanup(ts.Close)
	seed := connectHTTP(t, ts.URL)
	ids := make([]string, 4)
	for i := range ids {
		var put struct{ ID string }
		callOK(t, seed, "memory_put", map[string]any{"content": fmt.Sprintf("Shared fact %d about deploys.", i)}, &put)
		ids[i] = put.ID
	}
	calls := []struct {
		tool string
		args func(i int) map[string]any
	}{
		{"memory_put", func(i int) map[string]any { return map[string]any{"content": fmt.Sprintf("Concurrent note %d.", i)} }},
		{"memory_search", func(int) map[string]any { return map[string]any{"query": "deploys"} }},
		{"memory_pin", func(i int) map[string]any { return map[string]any{"id": ids[i%len(ids)]} }},
		{"memory_snooze", func(i int) map[string]any { return map[string]any{"id": ids[(i+1)%len(ids)], "days": 3} }},
		{"maintain_sync_plan", func(int) map[string]any { return map[string]any{} }},
		{"maintain_plan", func(int) map[string]any { return map[string]any{} }},
		{"memory_export", func(int) map[string]any { return map[string]any{} }},
		{"store_stats", func(int) map[string]any { return map[string]any{} }},
		{"store_tiers", func(int) map[string]any { return map[string]any{} }},
		{"store_reindex_status", func(int) map[string]any { return map[string]any{} }},
		{"observation_record", func(i int) map[string]any {
			return map[string]any{"type": "command", "content": fmt.Sprintf("make %d", i)}
		}},
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(calls))
	for round := range 2 {
		for _, c := range calls {
			wg.Go(func() {
				cs, err := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil).
					Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true}, nil)
				if err != nil {
					errs <- err
					return
				}
				defer cs.Close()
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args(round)})
				if err == nil && res.IsError {
					err = fmt.Errorf("%s", text(res))
				}
				if err != nil {
					errs <- fmt.Errorf("%s: %w", c.tool, err)
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var list struct{ Total int }
	callOK(t, seed, "memory_list", map[string]any{}, &list)
	if list.Total != len(ids)+2 {
		t.Fatalf("%d memories after the concurrent puts, want %d", list.Total, len(ids)+2)
	}
}

// connectHTTP connects a client to the streamable HTTP endpoint url.
func connectHTTP(t *testing.T, url string) *sdk.ClientSession {
	t.Helper()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "tester", Version: "1"}, nil).
		Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
