package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
)

// ContextURI names the resource holding the current context pack.
const ContextURI = "recall://context"

type contextIn struct {
	Query  string `json:"query,omitempty" jsonschema:"the task at hand; adds the memories most relevant to it"`
	Budget int    `json:"budget,omitempty" jsonschema:"token budget the pack never exceeds (default 2000)"`
}

type contextOut struct {
	Text     string           `json:"text" jsonschema:"the packed context, ready to read"`
	Tokens   int              `json:"tokens"`
	Budget   int              `json:"budget"`
	Dropped  int              `json:"dropped,omitempty" jsonschema:"items that did not fit"`
	Sections []sectionSummary `json:"sections"`
}

type sectionSummary struct {
	Name   string   `json:"name"`
	Tokens int      `json:"tokens"`
	IDs    []string `json:"ids,omitempty" jsonschema:"ids of the items in this section"`
}

func (t *tools) addContextTools(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "memory_context", Annotations: readOnly("Packed context"),
		Description: "Get the context worth knowing now, packed into a token budget: pinned core memories, the working set, the memories most relevant to query, recent sessions and rollups. " +
			"Call it at the start of a task (with the task as query) instead of several searches. The text is ready to read; ids let you memory_get any item."}, t.context)
	s.AddResource(&sdk.Resource{URI: ContextURI, Name: "context", Title: "Current context pack", MIMEType: "text/markdown",
		Description: "Pinned core memories, the working set, recent sessions and rollups, packed into the default token budget."}, t.readContext)
}

func (t *tools) context(ctx context.Context, _ *sdk.CallToolRequest, in contextIn) (*sdk.CallToolResult, contextOut, error) {
	budget := in.Budget
	if budget == 0 {
		budget = t.opt.Budget
	}
	pack, err := t.eng.Context(ctx, recall.ContextRequest{Query: in.Query, Budget: budget, Now: t.now()})
	if err != nil {
		return nil, contextOut{}, t.fail(ctx, "memory_context", err, "")
	}
	out := contextOut{Text: pack.Text, Tokens: pack.Tokens, Budget: pack.Budget, Dropped: pack.Dropped, Sections: []sectionSummary{}}
	for _, sec := range pack.Sections {
		sum := sectionSummary{Name: sec.Name, Tokens: sec.Tokens}
		for _, it := range sec.Items {
			sum.IDs = append(sum.IDs, it.ID)
		}
		out.Sections = append(out.Sections, sum)
	}
	// The model reads the pack as text; the structured form carries the
	// same text with the section index, so nothing is sent twice as JSON.
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: pack.Text}}}, out, nil
}

func (t *tools) readContext(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	pack, err := t.eng.Context(ctx, recall.ContextRequest{Budget: t.opt.Budget, Now: t.now()})
	if err != nil {
		// Resource reads have no isError result: the protocol error
		// carries the same model-facing message as a tool would.
		return nil, t.fail(ctx, "recall://context", err, "")
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: ContextURI, MIMEType: "text/markdown", Text: resourceText(pack.Text)}}}, nil
}

// emptyResource is the text of a resource with nothing to show. The go-sdk
// leaves an empty "text" out of resource contents, and clients (the
// TypeScript SDK) refuse contents with neither text nor blob, so an empty
// resource says that it is empty.
const emptyResource = "_Nothing to show yet: no pinned or working memories, sessions or rollups._\n"

// resourceText is the text a resource sends: never empty.
func resourceText(s string) string {
	if s == "" {
		return emptyResource
	}
	return s
}
