package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
)

type sessionStartIn struct {
	ID      string `json:"id,omitempty" jsonschema:"session id to use; default a new one"`
	Project string `json:"project,omitempty" jsonschema:"project the session works on"`
	Agent   string `json:"agent,omitempty" jsonschema:"who is working, e.g. claude-code; default the MCP client's name"`
}

type sessionEndIn struct {
	ID      string `json:"id" jsonschema:"the id session_start returned"`
	Summary string `json:"summary" jsonschema:"what the session did, in a few sentences"`
	Learned string `json:"learned,omitempty" jsonschema:"what is worth remembering next time"`
	Pin     string `json:"pin,omitempty" jsonschema:"title of a core memory to pin from this session (unique among pins)"`
}

type noArgs struct{}

func (t *tools) addSessionTools(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "session_start", Annotations: writes("Start a session", false, false),
		Description: "Start a work session: records it, runs housekeeping (moves old sessions to cold storage, reports integrity problems) and returns the bootstrap context to read before working. Call once at the beginning; keep the returned session id for session_end."}, t.sessionStart)
	sdk.AddTool(s, &sdk.Tool{Name: "session_end", Annotations: writes("End a session", false, true),
		Description: "End a session with a summary of what was done and what was learned, so the next session starts from it. Optionally pin one core memory by title."}, t.sessionEnd)
}

func (t *tools) sessionStart(ctx context.Context, req *sdk.CallToolRequest, in sessionStartIn) (*sdk.CallToolResult, *recall.SessionStartReport, error) {
	agent := in.Agent
	if agent == "" {
		agent = clientName(req)
	}
	rep, err := t.eng.StartSession(ctx, &recall.Session{ID: in.ID, Project: in.Project, Agent: agent, StartedAt: t.now().UTC()})
	if err != nil {
		return nil, nil, t.fail(ctx, "session_start", err, "")
	}
	return nil, rep, nil
}

func (t *tools) sessionEnd(ctx context.Context, _ *sdk.CallToolRequest, in sessionEndIn) (*sdk.CallToolResult, *recall.Session, error) {
	s, err := t.eng.EndSession(ctx, recall.SessionEnd{ID: in.ID, Summary: in.Summary, Learned: in.Learned, Pin: in.Pin})
	if err != nil {
		return nil, nil, t.fail(ctx, "session_end", err, findSessionHint)
	}
	return nil, s, nil
}

func (t *tools) addMaintainTool(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "maintain_plan", Annotations: readOnly("Maintenance plan"),
		Description: "Show what memory maintenance proposes, without changing anything: the working set's size against its budget, entries to demote, superseded entries, and findings (stale, contradictory, open loops). Tell the user; they apply it with `recall maintain`."}, t.maintainPlan)
}

func (t *tools) maintainPlan(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, *recall.MaintainPlan, error) {
	plan, err := t.eng.PlanMaintenance(ctx, "", t.now())
	if err != nil {
		return nil, nil, t.fail(ctx, "maintain_plan", err, "")
	}
	return nil, plan, nil
}
