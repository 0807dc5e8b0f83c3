package mcp

import (
	"context"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// Engine is what the server calls: the use cases of the application layer
// (package engine), and nothing else, so that every tool behaves as the
// command of the same name. *engine.Engine satisfies it; the interface is
// narrow so that a test can replace one use case (a builder that panics, a
// store that fails) by embedding a real engine.
//
// The server runs long and calls these concurrently, one call per
// request: an implementation must be safe for that.
type Engine interface {
	engine.UseCases
	Timeline(ctx context.Context, f recall.ObservationFilter) ([]*recall.Observation, int, error)
}

var _ Engine = (*engine.Engine)(nil)
