package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/recall-mem/recall"
)

// Search implements recall.Searcher.
func (c *Client) Search(ctx context.Context, sq recall.SearchQuery) ([]*recall.SearchHit, error) {
	q := url.Values{"q": {sq.Text}}
	f := sq.Filter
	f.Limit, f.Offset = sq.Limit, 0
	encodeFilter(q, f)
	if sq.Mode != "" {
		q.Set("mode", sq.Mode)
	}
	if sq.Explain {
		q.Set("explain", strconv.FormatBool(true))
	}
	if !sq.Now.IsZero() {
		q.Set("now", formatTime(sq.Now))
	}
	if sq.AsOf != nil {
		q.Set("as_of", formatTime(*sq.AsOf))
	}
	var out hitList
	if err := c.do(ctx, http.MethodGet, "/v1/search", q, nil, &out); err != nil {
		return nil, err
	}
	return out.Hits, nil
}

// BuildContext implements recall.ContextBuilder.
func (c *Client) BuildContext(ctx context.Context, req recall.ContextRequest) (*recall.ContextPack, error) {
	var pack recall.ContextPack
	body := contextBody{Query: req.Query, Budget: req.Budget, Now: req.Now, Filter: filterBodyFrom(req.Filter)}
	if err := c.do(ctx, http.MethodPost, "/v1/context", nil, body, &pack); err != nil {
		return nil, err
	}
	return &pack, nil
}

// RecordObservations implements recall.ObservationService; it sets the ids
// the server assigned.
func (c *Client) RecordObservations(ctx context.Context, obs []*recall.Observation) error {
	var out observationBatch
	if err := c.do(ctx, http.MethodPost, "/v1/observations", nil, observationBatch{Observations: obs}, &out); err != nil {
		return err
	}
	for i, o := range out.Observations {
		if i < len(obs) {
			*obs[i] = *o
		}
	}
	return nil
}

// FindObservations implements recall.ObservationService.
func (c *Client) FindObservations(ctx context.Context, f recall.ObservationFilter) ([]*recall.Observation, int, error) {
	q := url.Values{}
	encodeObservationFilter(q, f)
	var out observationList
	if err := c.do(ctx, http.MethodGet, "/v1/observations", q, nil, &out); err != nil {
		return nil, 0, err
	}
	return out.Observations, out.Total, nil
}
