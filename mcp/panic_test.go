package mcp_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/mcp"
	"github.com/recall-mem/recall/recalltest"
)

// panicContext panics on every call, for the resource path.
type panicContext struct{}

func (panicContext) BuildContext(context.Context, recall.ContextRequest) (*recall.ContextPack, error) {
	panic("context builder broke")
}

// A tool or resource handler that panics becomes an error result with
// the stack logged, and the session goes on: over stdio (in-memory
// transports run the same server) and over streamable HTTP.
func TestServer_PanicIsErrorResult(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			ctx := context.Background()
			var logs bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, nil))
			svc := allServices(t)
			svc.searcher = recalltest.PanicSearcher{Searcher: svc.Searcher()}
			svc.contexts = panicContext{}
			var cs *sdk.ClientSession
			if transport == "stdio" {
				cs = connect(t, svc, log)
			} else {
				ts := httptest.NewServer(mcp.HTTPHandler(mcp.NewServer(svc, mcp.Options{Logger: log}), log))
				t.Cleanup(ts.Close)
				var err error
				cs, err = sdk.NewClient(&sdk.Implementation{Name: "tester", Version: "1"}, nil).
					Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cs.Close() })
			}

			msg := callErr(t, cs, "memory_search", map[string]any{"query": recalltest.PanicQuery})
			if !strings.HasPrefix(msg, "internal:") || strings.Contains(msg, "index out of range") {
				t.Fatalf("model reads %q, want the generic internal message", msg)
			}
			if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "recall://context"}); err == nil {
				t.Fatal("a resource whose handler panics must fail")
			}
			if !strings.Contains(logs.String(), "PanicSearcher.Search") || !strings.Contains(logs.String(), "context builder broke") {
				t.Fatalf("log has no panic with its stack:\n%s", logs.String())
			}
			callOK(t, cs, "memory_put", map[string]any{"content": "still serving"}, nil)
			var out struct {
				Hits []any `json:"hits"`
			}
			callOK(t, cs, "memory_search", map[string]any{"query": "serving"}, &out)
			if len(out.Hits) != 1 {
				t.Fatalf("next search: %d hits, want 1", len(out.Hits))
			}
		})
	}
}
