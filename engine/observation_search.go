package engine

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
)

// SearchObservations finds the newest observations matching text, at or
// after since and before until when they are set, in their JSON form:
// what search --observations lists beside the memories.
func (e *Engine) SearchObservations(ctx context.Context, text string, since, until *time.Time, limit int) ([]ObservationJSON, error) {
	obs, _, err := e.Timeline(ctx, recall.ObservationFilter{Search: text, Since: since, Until: until, Desc: true, Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]ObservationJSON, 0, len(obs))
	for _, o := range obs {
		out = append(out, ToObservationJSON(o))
	}
	return out, nil
}
