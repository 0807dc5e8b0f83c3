package httpapi

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
)

// Engine is what the server calls: the use cases of *engine.Engine that
// REST offers, one route each, and nothing else. It is an interface, not
// the concrete engine, so that a test can stand in for one use case (a
// slow write, a panic) and keep the real engine for the rest; the program
// passes its *engine.Engine. Implementations must be safe for concurrent
// requests.
type Engine interface {
	engine.UseCases
	Now() time.Time
	FindObservations(ctx context.Context, f recall.ObservationFilter) ([]*recall.Observation, int, error)
}

var _ Engine = (*engine.Engine)(nil)
