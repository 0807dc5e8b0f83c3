package mcp

import (
	"context"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpRequest is the context key under which HTTPHandler passes the HTTP
// request's own context down to the tools.
type httpRequest struct{}

// withRequestContext serves h with r's context reachable as a value.
//
// The SDK (v1.8.0) runs a stateless POST's calls on a context made from
// the request's, but with its cancellation cut off (jsonrpc2's notDone),
// and ties them to the request again only for protocol versions from
// 2026-07-28 with PropagateRequestCancellation; clients today speak older
// ones. So a call whose client hung up ran on: a search queued behind the
// search gate's held slots kept its place. Values do pass through, so the
// request's context rides along as one and endsWithRequest, on the server
// side, cancels the call when it ends.
func withRequestContext(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), httpRequest{}, r.Context())))
	})
}

// endsWithRequest is the middleware that ends a call's context when the
// HTTP request that carried it ends: its client hung up, or its answer
// has been written. Calls over stdio carry no request and are left as
// they are.
func endsWithRequest(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		r, ok := ctx.Value(httpRequest{}).(context.Context)
		if !ok {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(r, cancel)()
		return next(ctx, method, req)
	}
}
