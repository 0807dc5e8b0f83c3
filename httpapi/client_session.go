package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/recall-mem/recall"
)

var (
	_ recall.SessionService = (*Client)(nil)
	_ recall.Maintainer     = (*Client)(nil)
)

// StartSession implements recall.SessionService.
func (c *Client) StartSession(ctx context.Context, sess *recall.Session) (*recall.SessionStartReport, error) {
	var rep recall.SessionStartReport
	if err := c.do(ctx, http.MethodPost, "/v1/sessions", nil, sess, &rep); err != nil {
		return nil, err
	}
	return &rep, nil
}

// EndSession implements recall.SessionService.
func (c *Client) EndSession(ctx context.Context, end recall.SessionEnd) (*recall.Session, error) {
	var sess recall.Session
	path := "/v1/sessions/end" // no id: an implicit session
	if end.ID != "" {
		path = "/v1/sessions/" + url.PathEscape(end.ID) + "/end"
	}
	if err := c.do(ctx, http.MethodPost, path, nil, end, &sess); err != nil {
		return nil, err
	}
	return &sess, nil
}

// FindSessions implements recall.SessionService.
func (c *Client) FindSessions(ctx context.Context, limit int) ([]*recall.Session, error) {
	var q url.Values
	if limit > 0 {
		q = url.Values{qLimit: {strconv.Itoa(limit)}}
	}
	var out sessionList
	if err := c.do(ctx, http.MethodGet, "/v1/sessions", q, nil, &out); err != nil {
		return nil, err
	}
	return out.Sessions, nil
}

// Plan implements recall.Maintainer.
func (c *Client) Plan(ctx context.Context) (*recall.MaintainPlan, error) {
	var plan recall.MaintainPlan
	if err := c.do(ctx, http.MethodGet, "/v1/maintain/plan", nil, nil, &plan); err != nil {
		return nil, err
	}
	return &plan, nil
}
