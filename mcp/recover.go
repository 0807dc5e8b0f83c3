package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// internalMessage is what the model reads when a call failed inside recall.
const internalMessage = "internal: recall hit an internal error (logged on the server). Retry once; if it fails again, tell the user."

// recoverPanics is receiving middleware that turns a handler that panics
// into an error: a tool call gets an isError result, any other method a
// JSON-RPC error. The SDK runs each request in its own goroutine without
// recovering, so without this one bad call would end `recall mcp`, or
// `recall serve` for every client.
func recoverPanics(log *slog.Logger) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (res sdk.Result, err error) {
			defer func() {
				v := recover()
				if v == nil {
					return
				}
				log.ErrorContext(ctx, "request panicked", "method", method, "panic", v, "stack", string(debug.Stack()))
				if method == "tools/call" {
					res, err = &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: internalMessage}}}, nil
					return
				}
				res, err = nil, fmt.Errorf("%s failed inside recall (logged on the server); retry once", method)
			}()
			return next(ctx, method, req)
		}
	}
}
