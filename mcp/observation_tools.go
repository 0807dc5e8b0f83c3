package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
)

type observationIn struct {
	Type     string         `json:"type" jsonschema:"what happened: user_prompt, command, command_error, file_edit, decision, ... (one word)"`
	Content  string         `json:"content" jsonschema:"the event itself; secrets are redacted before storage"`
	Key      string         `json:"key,omitempty" jsonschema:"what it is about (e.g. editor), so rollups can group values of one thing"`
	Session  string         `json:"session,omitempty" jsonschema:"session id"`
	Project  string         `json:"project,omitempty"`
	Tool     string         `json:"tool,omitempty" jsonschema:"tool that produced it"`
	File     string         `json:"file,omitempty" jsonschema:"file it concerns"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

type observationOut struct {
	ID int64  `json:"id"`
	At string `json:"at"`
}

type obsFilterIn struct {
	Type    string `json:"type,omitempty" jsonschema:"only this type"`
	Session string `json:"session,omitempty" jsonschema:"only this session"`
	Project string `json:"project,omitempty" jsonschema:"only this project"`
	Since   string `json:"since,omitempty" jsonschema:"only at or after this time (RFC 3339, e.g. 2026-01-02T15:04:05Z)"`
	Until   string `json:"until,omitempty" jsonschema:"only before this time (RFC 3339)"`
	Limit   int    `json:"limit,omitempty" jsonschema:"at most this many (default 20, at most 200)"`
}

type obsSearchIn struct {
	Query string `json:"query" jsonschema:"words to look for in the observations' text"`
	obsFilterIn
}

type obsBrief struct {
	ID      int64  `json:"id"`
	At      string `json:"at"`
	Type    string `json:"type"`
	Session string `json:"session,omitempty"`
	Tool    string `json:"tool,omitempty"`
	File    string `json:"file,omitempty"`
	Snippet string `json:"snippet"`
}

type obsListOut struct {
	Observations []obsBrief `json:"observations"`
	Total        int        `json:"total" jsonschema:"how many match, ignoring limit"`
}

func (t *tools) addObservationTools(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "observation_record", Annotations: writes("Record an observation", false, false),
		Description: "Record one raw event of this session (a prompt, a command and its error, an edit, a decision). Observations are searchable and rolled up over time; use memory_put instead for curated knowledge meant to last."}, t.record)
	sdk.AddTool(s, &sdk.Tool{Name: "observation_search", Annotations: readOnly("Search observations"),
		Description: "Search raw session events (prompts, commands, errors, edits) by words, newest first, e.g. to find when an error was seen or a command was run. Results are compact snippets."}, t.searchObservations)
	sdk.AddTool(s, &sdk.Tool{Name: "observation_timeline", Annotations: readOnly("Observation timeline"),
		Description: "List raw session events in time order (oldest first) for a session, a project or a time window: what happened, step by step. Without since, returns the latest events."}, t.timeline)
}

func (t *tools) record(ctx context.Context, _ *sdk.CallToolRequest, in observationIn) (*sdk.CallToolResult, observationOut, error) {
	o := &recall.Observation{Type: in.Type, Content: in.Content, Key: in.Key, Session: in.Session, Project: in.Project, Tool: in.Tool, File: in.File, At: t.now().UTC()}
	if in.Metadata != nil {
		raw, err := json.Marshal(in.Metadata)
		if err != nil {
			return nil, observationOut{}, t.fail(ctx, "observation_record", recall.Errorf(recall.EINVALID, "Metadata must be a JSON object."), "")
		}
		o.Metadata = raw
	}
	if err := t.eng.Observe(ctx, []*recall.Observation{o}); err != nil {
		return nil, observationOut{}, t.fail(ctx, "observation_record", err, "")
	}
	return nil, observationOut{ID: o.ID, At: stamp(o.At)}, nil
}

func (f obsFilterIn) build() (recall.ObservationFilter, error) {
	var out recall.ObservationFilter
	opt := func(v string) *string {
		if v == "" {
			return nil
		}
		return &v
	}
	out.Type, out.Session, out.Project = opt(f.Type), opt(f.Session), opt(f.Project)
	for _, p := range []struct {
		name, v string
		dst     **time.Time
	}{{"since", f.Since, &out.Since}, {"until", f.Until, &out.Until}} {
		if p.v == "" {
			continue
		}
		at, err := time.Parse(time.RFC3339, p.v)
		if err != nil {
			return out, recall.Errorf(recall.EINVALID, "Invalid %s %q: use an RFC 3339 time like 2026-01-02T15:04:05Z.", p.name, p.v)
		}
		*p.dst = &at
	}
	out.Limit = clamp(f.Limit, 20, 200)
	return out, nil
}

func (t *tools) findObservations(ctx context.Context, tool string, f recall.ObservationFilter) (obsListOut, error) {
	obs, total, err := t.eng.Timeline(ctx, f)
	if err != nil {
		return obsListOut{}, t.fail(ctx, tool, err, findObservationHint)
	}
	out := obsListOut{Observations: []obsBrief{}, Total: total}
	for _, o := range obs {
		out.Observations = append(out.Observations, obsBrief{ID: o.ID, At: stamp(o.At), Type: o.Type, Session: o.Session, Tool: o.Tool, File: o.File, Snippet: snippet(o.Content)})
	}
	return out, nil
}

func (t *tools) searchObservations(ctx context.Context, _ *sdk.CallToolRequest, in obsSearchIn) (*sdk.CallToolResult, obsListOut, error) {
	f, err := in.build()
	if err != nil {
		return nil, obsListOut{}, t.fail(ctx, "observation_search", err, "")
	}
	f.Search, f.Desc = in.Query, true
	out, err := t.findObservations(ctx, "observation_search", f)
	return nil, out, err
}

func (t *tools) timeline(ctx context.Context, _ *sdk.CallToolRequest, in obsFilterIn) (*sdk.CallToolResult, obsListOut, error) {
	f, err := in.build()
	if err != nil {
		return nil, obsListOut{}, t.fail(ctx, "observation_timeline", err, "")
	}
	// From a start time, read forward; without one, take the latest events
	// and put them back in time order.
	f.Desc = f.Since == nil
	out, err := t.findObservations(ctx, "observation_timeline", f)
	if f.Desc {
		slices.Reverse(out.Observations)
	}
	return nil, out, err
}
