// Package httpapi serves recall's REST API under /v1/ (and, when given one,
// an MCP handler at /mcp) and provides a Go client that implements the root
// package's service interfaces over that API.
//
// The directory is not named http so that callers need no import alias
// next to net/http.
package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/recall-mem/recall"
)

// Defaults for a Server's limits.
const (
	DefaultMaxBodyBytes    = 8 << 20 // above the 1 MiB content cap, so the store reports too_large
	DefaultRequestTimeout  = 60 * time.Second
	DefaultShutdownTimeout = 30 * time.Second
)

// Server is recall's HTTP front end. Set the fields, then call Handler or
// Serve.
type Server struct {
	// Engine is the open store every route acts through, and nothing
	// else: each route is one engine method, so REST reaches what the CLI
	// and MCP reach. Pass the program's *engine.Engine. Nil answers every
	// route but healthz and the document with unavailable.
	Engine Engine

	// Token, when set, must arrive on every request as "Authorization:
	// Bearer TOKEN".
	Token string
	// Loopback says the server listens on a loopback address only; it then
	// refuses requests whose Host is not a loopback name (DNS rebinding).
	Loopback bool
	// MCP, when set, is served at /mcp behind the same guards.
	MCP http.Handler
	// UI, when set, answers every path outside /v1/ and /mcp. It brings
	// its own guards: a browser signs in once and then sends a cookie,
	// not the bearer header the API requires.
	UI http.Handler
	// Logger receives request failures; nil discards them.
	Logger *slog.Logger
	// MaxBodyBytes caps a request body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// RequestTimeout bounds reading a request and writing its response; 0
	// means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// ShutdownTimeout bounds how long Serve waits for in-flight requests
	// after its context ends; 0 means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
}

func (s *Server) log() *slog.Logger {
	if s.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Logger
}

func (s *Server) maxBody() int64 {
	if s.MaxBodyBytes > 0 {
		return s.MaxBodyBytes
	}
	return DefaultMaxBodyBytes
}

// Handler returns the routes behind the safety guards.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	if s.Engine != nil {
		s.registerRoutes(mux)
	} else {
		mux.HandleFunc("GET /v1/healthz", s.healthz)
		mux.HandleFunc("GET "+openAPIPath, s.openAPI)
		mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
			writeError(w, r, s.log(), recall.Errorf(recall.EUNAVAILABLE, "This server has no store open: start it with `recall serve`."))
		})
	}
	if s.MCP != nil {
		mux.Handle("/mcp", s.MCP)
	}
	mux.HandleFunc("/", s.noRoute(mux))
	api := recoverPanics(s.log(), s.guard(mux))
	if s.UI == nil {
		return api
	}
	top := http.NewServeMux()
	top.Handle("/v1/", api)
	top.Handle("/mcp", api)
	top.Handle("/", recoverPanics(s.log(), s.UI))
	return top
}

// router is what the route tables register on: an *http.ServeMux, or in
// tests a recorder that lists the patterns.
type router interface {
	Handle(pattern string, h http.Handler)
	HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request))
}

// registerRoutes registers every /v1/ route; apiRoutes in openapi_routes.go
// documents them.
func (s *Server) registerRoutes(mux router) {
	s.memoryRoutes(mux)
	s.searchRoutes(mux)
	s.observationRoutes(mux)
	s.sessionRoutes(mux)
	s.entryRoutes(mux)
	s.tierRoutes(mux)
	s.storeRoutes(mux)
	mux.HandleFunc("GET /v1/healthz", s.healthz)
	mux.HandleFunc("GET "+versionPath, s.version)
	mux.HandleFunc("GET "+openAPIPath, s.openAPI)
}

// healthReport is the body of GET /v1/healthz.
type healthReport struct {
	Status      string   `json:"status"`
	Unavailable []string `json:"unavailable,omitempty"` // "store" when the server has no engine
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	h := healthReport{Status: "ok"}
	if s.Engine == nil {
		h.Unavailable = []string{"store"}
	}
	writeJSON(w, http.StatusOK, h)
}

// Serve answers requests on ln until ctx ends, then shuts down gracefully:
// it stops accepting, lets in-flight requests (and their write
// transactions) finish, and returns. It returns nil after a clean
// shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	timeout := s.RequestTimeout
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       timeout,
		WriteTimeout:      timeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log().Handler(), slog.LevelWarn),
		// Requests must not be cancelled when shutdown starts: a write that
		// has begun should commit, so request contexts do not derive from ctx.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	grace := s.ShutdownTimeout
	if grace <= 0 {
		grace = DefaultShutdownTimeout
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
