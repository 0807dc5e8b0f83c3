// Package mcp exposes recall's services to agents over the Model Context
// Protocol, with the official Go SDK: typed tools with JSON schemas and
// annotations, compact results, and a resource with the current context
// pack. The same server runs over stdio (recall mcp) and streamable HTTP
// (recall serve, at /mcp).
package mcp

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/buildinfo"
)

// DefaultBudget is the token budget of memory_context and recall://context
// when the caller gives none.
const DefaultBudget = 2000

// Options configure a server.
type Options struct {
	Version string       // reported to clients; "" means the binary's own (buildinfo.Version)
	Logger  *slog.Logger // internal errors go here, never to the model; nil discards
	Budget  int          // default context budget; 0 means DefaultBudget
	// Now is the clock for relative times in searches; nil means time.Now.
	Now func() time.Time
}

// tools holds what every handler needs.
type tools struct {
	eng Engine
	opt Options
	log *slog.Logger
}

// NewServer returns an MCP server with a tool for every use case of eng
// that an agent may call.
func NewServer(eng Engine, opt Options) *sdk.Server {
	if opt.Budget <= 0 {
		opt.Budget = DefaultBudget
	}
	if opt.Version == "" {
		opt.Version = buildinfo.Version()
	}
	t := &tools{eng: eng, opt: opt, log: opt.Logger}
	if t.log == nil {
		t.log = slog.New(slog.DiscardHandler)
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "recall", Title: "recall memory", Version: opt.Version},
		&sdk.ServerOptions{Instructions: instructions(), Logger: t.log, Capabilities: &sdk.ServerCapabilities{}})
	s.AddReceivingMiddleware(recoverPanics(t.log), endsWithRequest)
	t.addMemoryTools(s)
	t.addVersionTools(s)
	t.addEntryTools(s)
	t.addSearchTool(s)
	t.addContextTools(s)
	t.addSessionTools(s)
	t.addMaintainTool(s)
	t.addProjectTools(s)
	t.addObservationTools(s)
	t.addStoreTools(s)
	return s
}

// instructions tell the model how to use the tools.
func instructions() string {
	var b strings.Builder
	b.WriteString("recall is your long-term memory for this user and project. ")
	b.WriteString("Before answering questions about earlier work, preferences or decisions, call memory_search (or memory_context for a packed summary). ")
	b.WriteString("Store durable facts, decisions and preferences with memory_put; results are compact, so call memory_get for the full text. ")
	b.WriteString("Ids look like tr0123456789; a key (a slug) works wherever an id does. ")
	b.WriteString("The store_* and maintain_* tools are upkeep the user asks for; store_purge deletes for good and needs confirm.")
	return b.String()
}

func (t *tools) now() time.Time {
	if t.opt.Now != nil {
		return t.opt.Now()
	}
	return time.Now()
}

// toolError is what the model reads when a call fails: the domain
// message and the next step. The SDK turns it into a result with isError.
type toolError struct{ msg string }

func (e *toolError) Error() string { return e.msg }

// fail converts err for the model. Internal errors are logged with their
// chain and replaced by a generic message; others keep their message and
// gain a hint naming the tool to call next. next is the hint for
// not_found (which tool lists valid ids).
func (t *tools) fail(ctx context.Context, tool string, err error, next string) error {
	code := recall.ErrorCode(err)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &toolError{msg: "The call was cancelled or timed out before it finished; retry it."}
	}
	if code == recall.EINTERNAL {
		t.log.ErrorContext(ctx, "tool failed", "tool", tool, "err", err)
		return &toolError{msg: internalMessage}
	}
	hint := ""
	switch code {
	case recall.ENOTFOUND:
		hint = next
	case recall.EINVALID:
		hint = "Fix the arguments and call " + tool + " again."
	case recall.ECONFLICT:
		hint = "Pass collection to choose one, or change the conflicting key or title."
	case recall.EUNAVAILABLE, recall.ENOTIMPL:
		hint = "This capability is not available right now; continue without it."
	}
	msg := code + ": " + recall.ErrorMessage(err)
	if hint != "" {
		msg += " " + hint
	}
	return &toolError{msg: msg}
}

// Hints for not_found, naming the tools that list valid references.
const (
	findMemoryHint      = "Call memory_search or memory_list to find valid ids or keys."
	findObservationHint = "Call observation_search or observation_timeline to find observations."
	findSessionHint     = "Call session_start to begin a session and use the id it returns."
)

// Annotations. Every tool acts on the local store only (a closed world).
func readOnly(title string) *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: true, OpenWorldHint: new(false)}
}

func writes(title string, destructive, idempotent bool) *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{Title: title, DestructiveHint: new(destructive), IdempotentHint: idempotent, OpenWorldHint: new(false)}
}

// HTTPHandler serves s over streamable HTTP, statelessly with JSON
// responses: every POST is answered in full, so no long-lived stream
// holds up a graceful shutdown and several agents share one process.
// Localhost protection stays on; the caller adds its own guards. A call
// ends when its client hangs up (withRequestContext): s must come from
// NewServer.
func HTTPHandler(s *sdk.Server, log *slog.Logger) http.Handler {
	return withRequestContext(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: log, PropagateRequestCancellation: true}))
}
