package engine

import (
	"context"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// Manual is the observation j describes with text recorded by hand, at
// the time at (RFC 3339 or a date; empty for now) with the metadata JSON
// object meta (empty for none). Empty text is refused.
func (j ObservationJSON) Manual(text, at, meta string) (*recall.Observation, error) {
	if strings.TrimSpace(text) == "" {
		return nil, recall.Errorf(recall.EINVALID, "empty observation: give the text as an argument or on stdin with -")
	}
	o := j.Observation()
	o.Content = text
	if at != "" {
		t, err := ParseTime("at", at)
		if err != nil {
			return nil, err
		}
		o.At = t
	}
	if meta != "" {
		m, err := ParseMetadata("metadata", meta)
		if err != nil {
			return nil, err
		}
		o.Metadata = m
	}
	return o, nil
}

// ApplyObservationTimes bounds f by since and until (each a time, a date
// or a relative day; empty for no bound), read at now.
func ApplyObservationTimes(f *recall.ObservationFilter, since, until string, now time.Time) error {
	for _, b := range []struct {
		name, v string
		dst     **time.Time
	}{{"since", since, &f.Since}, {"until", until, &f.Until}} {
		if b.v != "" {
			t, err := ParseBound(b.name, b.v, now)
			if err != nil {
				return err
			}
			*b.dst = &t
		}
	}
	return nil
}

// TimelineJSON is Timeline oldest first, in the form import --observations
// reads, with how many observations match in all.
func (e *Engine) TimelineJSON(ctx context.Context, f recall.ObservationFilter) ([]ObservationJSON, int, error) {
	obs, total, err := e.Timeline(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	out := make([]ObservationJSON, len(obs))
	for i, o := range obs { // newest first from the store
		out[len(obs)-1-i] = ToObservationJSON(o)
	}
	return out, total, nil
}

// StartSessionAt starts s at the time at (empty for now), by the default
// author unless s names its agent.
func (e *Engine) StartSessionAt(ctx context.Context, s *recall.Session, at string) (*recall.SessionStartReport, error) {
	if s.Agent == "" {
		s.Agent = DefaultAuthor()
	}
	if at != "" {
		t, err := ParseTime("at", at)
		if err != nil {
			return nil, err
		}
		s.StartedAt = t
	}
	return e.StartSession(ctx, s)
}

// EndOpenSession ends the session end names, else the newest open one,
// else a new one; warning says so in that last case, even on error.
func (e *Engine) EndOpenSession(ctx context.Context, end recall.SessionEnd) (s *recall.Session, warning string, err error) {
	if end.ID == "" {
		id, err := e.OpenSession(ctx)
		if recall.ErrorCode(err) == recall.ENOTFOUND {
			warning = recall.ErrorMessage(err) + " The summary goes to a new session."
		} else if err != nil {
			return nil, "", err
		}
		end.ID = id
	}
	s, err = e.EndSession(ctx, end)
	return s, warning, err
}
