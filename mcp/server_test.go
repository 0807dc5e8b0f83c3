package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/engine/enginetest"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/mcp"
	"github.com/recall-mem/recall/sqlite"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
)

var clock = sqlitetest.Clock

// Fakes for the services that live on other branches.
type fakeContext struct{ last recall.ContextRequest }

func (f *fakeContext) BuildContext(_ context.Context, req recall.ContextRequest) (*recall.ContextPack, error) {
	if req.Budget <= 0 {
		return nil, recall.Errorf(recall.EINVALID, "Budget must be a positive number of tokens.")
	}
	f.last = req
	return &recall.ContextPack{Text: "## Core\n- Deploys go through staging.", Tokens: 9, Budget: req.Budget,
		Sections: []recall.ContextSection{{Name: "core", Tokens: 9, Items: []recall.ContextItem{{ID: "tr00000000aa", Kind: "memory", Text: "Deploys go through staging.", Tokens: 9}}}}}, nil
}

type fakeSessions struct{ ended []recall.SessionEnd }

func (f *fakeSessions) StartSession(_ context.Context, s *recall.Session) (*recall.SessionStartReport, error) {
	s.ID, s.State = "s-1", "hot"
	return &recall.SessionStartReport{Session: s, Context: "Last session: fixed the build."}, nil
}

func (f *fakeSessions) EndSession(_ context.Context, end recall.SessionEnd) (*recall.Session, error) {
	if end.ID != "s-1" {
		return nil, recall.Errorf(recall.ENOTFOUND, "No session %q.", end.ID)
	}
	f.ended = append(f.ended, end)
	return &recall.Session{ID: end.ID, Summary: end.Summary, State: "hot", StartedAt: clock}, nil
}

func (f *fakeSessions) FindSessions(context.Context, int) ([]*recall.Session, error) { return nil, nil }

// testEngine is a real engine on a new store (a project store, so the
// managed files live in the test's directory) with use cases a test may
// replace: each override is used when set.
type testEngine struct {
	*engine.Engine
	contexts recall.ContextBuilder
	sessions recall.SessionService
	plan     *recall.MaintainPlan
	searcher recall.Searcher
	getErr   error // Get fails with it
}

func (e *testEngine) Context(ctx context.Context, req recall.ContextRequest) (*recall.ContextPack, error) {
	if e.contexts != nil {
		return e.contexts.BuildContext(ctx, req)
	}
	return e.Engine.Context(ctx, req)
}

func (e *testEngine) StartSession(ctx context.Context, s *recall.Session) (*recall.SessionStartReport, error) {
	if e.sessions != nil {
		return e.sessions.StartSession(ctx, s)
	}
	return e.Engine.StartSession(ctx, s)
}

func (e *testEngine) EndSession(ctx context.Context, end recall.SessionEnd) (*recall.Session, error) {
	if e.sessions != nil {
		return e.sessions.EndSession(ctx, end)
	}
	return e.Engine.EndSession(ctx, end)
}

func (e *testEngine) PlanMaintenance(ctx context.Context, root string, now time.Time) (*recall.MaintainPlan, error) {
	if e.plan != nil {
		return e.plan, nil
	}
	return e.Engine.PlanMaintenance(ctx, root, now)
}

func (e *testEngine) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	if e.searcher != nil {
		return e.searcher.Search(ctx, q)
	}
	return e.Engine.Search(ctx, q)
}

func (e *testEngine) Get(ctx context.Context, ref, collection string) (*recall.Memory, error) {
	if e.getErr != nil {
		return nil, e.getErr
	}
	return e.Engine.Get(ctx, ref, collection)
}

// newEngine opens a real engine (SQLite, full-text search only: no embedder) on a project
// store in a new directory and checks the store's integrity at the end.
func newEngine(t testing.TB) *testEngine {
	t.Helper()
	parts := engine.Parts{Backend: sqlite.Backend{},
		NewEmbedder: func(engine.RetrievalConfig) (recall.Embedder, bool, error) { return hashing.None{}, true, nil }}
	return &testEngine{Engine: enginetest.Open(t, parts, io.Discard)}
}

// allServices is a real engine with fakes for the context builder, the
// sessions and the maintenance plan, whose results the tests check.
func allServices(t *testing.T) *testEngine {
	e := newEngine(t)
	e.contexts, e.sessions = &fakeContext{}, &fakeSessions{}
	e.plan = &recall.MaintainPlan{WorkingWords: 1800, Target: 1500, PressureCandidates: []recall.MaintainCandidate{{ID: "tr00000000aa", Text: "old note", Action: "demote"}}}
	return e
}

// connect runs a server over eng on in-memory transports and returns a
// connected client session.
func connect(t *testing.T, eng mcp.Engine, log *slog.Logger) *sdk.ClientSession {
	t.Helper()
	return connectServer(t, mcp.NewServer(eng, mcp.Options{Version: "test", Logger: log, Now: func() time.Time { return clock }}))
}

// connectServer runs server on in-memory transports and returns a
// connected client session.
func connectServer(t *testing.T, server *sdk.Server) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "tester", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// callOK calls a tool, fails on an error result, and decodes its
// structured output into out (when non-nil).
func callOK(t *testing.T, cs *sdk.ClientSession, name string, args any, out any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: error result: %s", name, text(res))
	}
	if out != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: structured content %s: %v", name, b, err)
		}
	}
	return res
}

// callErr calls a tool that must fail and returns the message the model reads.
func callErr(t *testing.T, cs *sdk.ClientSession, name string, args any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v, want an isError result", name, err)
	}
	if !res.IsError {
		t.Fatalf("%s: want isError, got %s", name, text(res))
	}
	return text(res)
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

var allTools = []string{
	"maintain_apply", "maintain_plan", "maintain_sync", "maintain_sync_plan",
	"memory_archive", "memory_context", "memory_delete", "memory_demote", "memory_diff", "memory_export", "memory_get",
	"memory_history", "memory_import", "memory_list", "memory_pin", "memory_put", "memory_restore", "memory_review",
	"memory_search", "memory_snooze", "memory_supersede", "memory_update",
	"observation_record", "observation_search", "observation_timeline", "rollup_run",
	"session_end", "session_list", "session_start",
	"store_backup", "store_doctor", "store_purge", "store_purge_plan", "store_reindex_status", "store_stats", "store_sweep", "store_tiers",
}

// readOnlyTools change nothing; every other tool says whether it is
// destructive.
var readOnlyTools = map[string]bool{
	"maintain_plan": true, "maintain_sync_plan": true, "memory_context": true, "memory_diff": true, "memory_export": true,
	"memory_get": true, "memory_history": true, "memory_list": true, "memory_search": true,
	"observation_search": true, "observation_timeline": true, "session_list": true,
	"store_doctor": true, "store_purge_plan": true, "store_reindex_status": true, "store_stats": true, "store_tiers": true,
}

// destructiveTools may destroy or overwrite what the user has.
var destructiveTools = map[string]bool{
	"maintain_apply": true, "maintain_sync": true, "memory_delete": true, "memory_import": true, "memory_restore": true,
	"memory_update": true, "store_purge": true, "store_sweep": true,
}

func TestServer_Tools(t *testing.T) {
	ctx := context.Background()
	t.Run("All", func(t *testing.T) {
		cs := connect(t, allServices(t), nil)
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if len(tool.Description) < 80 || tool.Annotations == nil || tool.InputSchema == nil || tool.OutputSchema == nil {
				t.Errorf("%s: description, annotations and schemas are required: %+v", tool.Name, tool)
				continue
			}
			readOnly := readOnlyTools[tool.Name]
			if tool.Annotations.ReadOnlyHint != readOnly {
				t.Errorf("%s: readOnlyHint = %v", tool.Name, tool.Annotations.ReadOnlyHint)
			}
			if !readOnly && (tool.Annotations.DestructiveHint == nil || *tool.Annotations.DestructiveHint != destructiveTools[tool.Name]) {
				t.Errorf("%s: destructiveHint %v, want %v", tool.Name, tool.Annotations.DestructiveHint, destructiveTools[tool.Name])
			}
		}
		if strings.Join(names, " ") != strings.Join(allTools, " ") {
			t.Fatalf("tools %v\nwant  %v", names, allTools)
		}
		if strings.Contains(cs.InitializeResult().Instructions, "Not available") {
			t.Fatalf("instructions claim something is missing: %s", cs.InitializeResult().Instructions)
		}
	})
}

// TestServer_SearchContext: with the ranking searcher, the turn recorded
// after a matching turn is shown under its hit, never as a hit.
func TestServer_SearchContext(t *testing.T) {
	cs := connect(t, newEngine(t), nil)
	for _, c := range []string{"Ana: where did you end up moving?", "Ben: Lisbon, near the river."} {
		callOK(t, cs, "memory_put", map[string]any{"content": c, "type": "dialog"}, nil)
	}
	var out struct {
		Hits []struct {
			Context []struct{ Snippet string }
		}
	}
	callOK(t, cs, "memory_search", map[string]any{"query": "moving"}, &out)
	if len(out.Hits) != 1 || len(out.Hits[0].Context) != 1 || !strings.Contains(out.Hits[0].Context[0].Snippet, "Lisbon") {
		t.Fatalf("hits %+v", out.Hits)
	}
}

func TestServer_MemoryTools(t *testing.T) {
	cs := connect(t, allServices(t), nil)
	var put struct {
		ID, Key, Collection string
		Version             int
		Created             bool
	}
	callOK(t, cs, "memory_put", map[string]any{"content": "# Deploy rule\nDeploys go through staging first.", "tags": []string{"Ops", "deploy", "ops"},
		"type": "decision", "metadata": map[string]any{"source": "chat"}}, &put)
	if !recall.IsID(put.ID) || put.Key != "deploy-rule" || put.Version != 1 || !put.Created || put.Collection != "default" {
		t.Fatalf("put %+v", put)
	}
	t.Run("Get", func(t *testing.T) {
		var m map[string]any
		callOK(t, cs, "memory_get", map[string]any{"id": "deploy-rule"}, &m)
		if m["title"] != "Deploy rule" || m["created_by"] != "tester" || m["metadata"].(map[string]any)["source"] != "chat" {
			t.Fatalf("get %v", m)
		}
		if tags, _ := json.Marshal(m["tags"]); string(tags) != `["ops","deploy"]` {
			t.Fatalf("tags %s", tags)
		}
	})
	t.Run("SameKeyNewVersion", func(t *testing.T) {
		var again struct {
			ID      string
			Version int
			Created bool
		}
		callOK(t, cs, "memory_put", map[string]any{"content": "Deploys go through staging, then canary.", "key": "deploy-rule"}, &again)
		if again.ID != put.ID || again.Version != 2 || again.Created {
			t.Fatalf("second put %+v", again)
		}
		var same struct {
			Version   int
			Unchanged bool
		}
		callOK(t, cs, "memory_put", map[string]any{"content": "Deploys go through staging, then canary.", "key": "deploy-rule"}, &same)
		if same.Version != 2 || !same.Unchanged {
			t.Fatalf("a put that changes nothing: %+v, want version 2 kept and unchanged", same)
		}
	})
	t.Run("SearchCompact", func(t *testing.T) {
		callOK(t, cs, "memory_put", map[string]any{"content": strings.Repeat("Unrelated words about databases. ", 40), "title": "Long note"}, nil)
		var out struct{ Hits []map[string]any }
		res := callOK(t, cs, "memory_search", map[string]any{"query": "staging deploys", "filter": []string{"tags=deploy"}}, &out)
		if len(out.Hits) != 1 || out.Hits[0]["id"] != put.ID || out.Hits[0]["content"] != nil || out.Hits[0]["snippet"] == "" {
			t.Fatalf("hits %v", out.Hits)
		}
		if len(text(res)) > 600 {
			t.Fatalf("a one-hit search result is %d bytes: not compact", len(text(res)))
		}
	})
	t.Run("ListCompact", func(t *testing.T) {
		var out struct {
			Memories []map[string]any
			Total    int
		}
		callOK(t, cs, "memory_list", map[string]any{"limit": 1}, &out)
		if out.Total != 2 || len(out.Memories) != 1 {
			t.Fatalf("list %+v", out)
		}
		if s := out.Memories[0]["snippet"].(string); len([]rune(s)) > 160 {
			t.Fatalf("snippet of %d runes", len([]rune(s)))
		}
		callOK(t, cs, "memory_list", map[string]any{"type": "decision"}, &out)
		if out.Total != 1 {
			t.Fatalf("type filter: %+v", out)
		}
	})
	t.Run("UpdateMergesTagsAndMetadata", func(t *testing.T) {
		callOK(t, cs, "memory_update", map[string]any{"id": put.ID, "tags": []string{"release"}, "merge_tags": true, "metadata": map[string]any{"source": nil, "team": "infra"}}, nil)
		var m map[string]any
		callOK(t, cs, "memory_get", map[string]any{"id": put.ID}, &m)
		tags, _ := json.Marshal(m["tags"])
		meta, _ := json.Marshal(m["metadata"])
		if string(tags) != `["ops","deploy","release"]` || string(meta) != `{"team":"infra"}` || m["version"] != float64(3) {
			t.Fatalf("tags %s metadata %s version %v", tags, meta, m["version"])
		}
	})
	t.Run("Pin", func(t *testing.T) {
		var out struct {
			Pinned  bool
			Version int
		}
		callOK(t, cs, "memory_pin", map[string]any{"id": "deploy-rule"}, &out)
		if !out.Pinned || out.Version != 4 {
			t.Fatalf("pin %+v", out)
		}
		callOK(t, cs, "memory_pin", map[string]any{"id": "deploy-rule", "pinned": false}, &out)
		if out.Pinned {
			t.Fatal("unpin did not unpin")
		}
	})
	t.Run("HistoryAndOldVersion", func(t *testing.T) {
		var out struct {
			ID       string
			Versions []struct {
				Version int
				Op      string
			}
		}
		callOK(t, cs, "memory_history", map[string]any{"id": "deploy-rule"}, &out)
		if out.ID != put.ID || len(out.Versions) != 5 || out.Versions[0].Op != "put" || out.Versions[2].Op != "update" {
			t.Fatalf("history %+v", out)
		}
		var m map[string]any
		callOK(t, cs, "memory_get", map[string]any{"id": put.ID, "version": 1}, &m)
		if !strings.Contains(m["content"].(string), "staging first") {
			t.Fatalf("version 1: %v", m["content"])
		}
	})
	t.Run("Delete", func(t *testing.T) {
		var out struct {
			ID      string
			Deleted bool
		}
		callOK(t, cs, "memory_delete", map[string]any{"id": "deploy-rule"}, &out)
		if out.ID != put.ID || !out.Deleted {
			t.Fatalf("delete %+v", out)
		}
		msg := callErr(t, cs, "memory_get", map[string]any{"id": put.ID})
		if !strings.HasPrefix(msg, "not_found: ") || !strings.Contains(msg, "memory_search or memory_list") {
			t.Fatalf("message %q does not say what to do next", msg)
		}
		callOK(t, cs, "memory_history", map[string]any{"id": put.ID}, nil)
	})
}

func TestServer_Errors(t *testing.T) {
	var logs bytes.Buffer
	svc := allServices(t)
	cs := connect(t, svc, slog.New(slog.NewTextHandler(&logs, nil)))
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"memory_put", map[string]any{"content": "x", "key": "Bad Key"}, "invalid: "},
		{"memory_put", map[string]any{"title": "no content"}, "content"},
		{"memory_put", map[string]any{"content": 42}, "content"},
		{"memory_get", map[string]any{"id": "tr0000000000"}, "memory_search or memory_list"},
		{"memory_update", map[string]any{"id": "nope", "title": "x"}, "memory_search or memory_list"},
		{"memory_update", map[string]any{"id": "nope", "collection": "work", "title": "x"}, "not_found"},
		{"memory_pin", map[string]any{"id": "tr0000000000"}, "not_found"},
		{"memory_history", map[string]any{"id": "tr0000000000"}, "not_found"},
		{"memory_delete", map[string]any{"id": "tr0000000000"}, "not_found"},
		{"memory_get", map[string]any{"id": "tr0000000000", "version": 2}, "not_found"},
		{"memory_search", map[string]any{"query": "x", "filter": []string{"nofield"}}, "invalid: "},
		{"memory_list", map[string]any{"filter": []string{"colour=red"}}, "invalid: "},
		{"memory_list", map[string]any{"status": "gone"}, ""},
		{"memory_context", map[string]any{"budget": -5}, "invalid: "},
		{"session_end", map[string]any{"id": "s-9", "summary": "done"}, "session_start"},
		{"observation_record", map[string]any{"type": "two words", "content": "x"}, "invalid: "},
		{"observation_timeline", map[string]any{"since": "yesterday"}, "RFC 3339"},
	} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Errorf("%s %v: protocol error %v", c.tool, c.args, err)
			continue
		}
		if c.want == "" { // accepted: an unknown status just matches nothing
			continue
		}
		if !res.IsError || !strings.Contains(text(res), c.want) {
			t.Errorf("%s %v: got isError=%v %q, want an error mentioning %q", c.tool, c.args, res.IsError, text(res), c.want)
		}
	}
	t.Run("InternalNotLeaked", func(t *testing.T) {
		broken := newEngine(t)
		broken.getErr = errors.New("disk I/O error at /secret/path/recall.db")
		cs := connect(t, broken, slog.New(slog.NewTextHandler(&logs, nil)))
		msg := callErr(t, cs, "memory_get", map[string]any{"id": "k"})
		if strings.Contains(msg, "secret") || !strings.HasPrefix(msg, "internal: ") {
			t.Fatalf("model reads %q", msg)
		}
		if !strings.Contains(logs.String(), "/secret/path") {
			t.Fatalf("internal error not logged: %s", logs.String())
		}
	})
}

func TestServer_ContextSessionMaintain(t *testing.T) {
	ctx := context.Background()
	svc := allServices(t)
	cs := connect(t, svc, nil)
	t.Run("Context", func(t *testing.T) {
		var out struct {
			Text     string
			Budget   int
			Sections []struct {
				Name string
				IDs  []string
			}
		}
		res := callOK(t, cs, "memory_context", map[string]any{"query": "deploy"}, &out)
		if out.Budget != mcp.DefaultBudget || out.Sections[0].IDs[0] != "tr00000000aa" || text(res) != out.Text || !strings.Contains(out.Text, "staging") {
			t.Fatalf("context %+v / %q", out, text(res))
		}
		if got := svc.contexts.(*fakeContext).last; got.Query != "deploy" || !got.Now.Equal(clock) {
			t.Fatalf("request %+v", got)
		}
	})
	t.Run("Resource", func(t *testing.T) {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.ContextURI})
		if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "staging") || res.Contents[0].MIMEType != "text/markdown" {
			t.Fatalf("resource %+v %v", res, err)
		}
	})
	t.Run("Sessions", func(t *testing.T) {
		var rep recall.SessionStartReport
		callOK(t, cs, "session_start", map[string]any{"project": "web"}, &rep)
		if rep.Session.ID != "s-1" || rep.Session.Agent != "tester" || rep.Context == "" {
			t.Fatalf("report %+v", rep)
		}
		var s recall.Session
		callOK(t, cs, "session_end", map[string]any{"id": "s-1", "summary": "Fixed the build.", "pin": "Build rule"}, &s)
		if s.Summary != "Fixed the build." || svc.sessions.(*fakeSessions).ended[0].Pin != "Build rule" {
			t.Fatalf("session %+v", s)
		}
	})
	t.Run("MaintainPlan", func(t *testing.T) {
		var plan recall.MaintainPlan
		callOK(t, cs, "maintain_plan", map[string]any{}, &plan)
		if plan.WorkingWords != 1800 || plan.PressureCandidates[0].Action != "demote" {
			t.Fatalf("plan %+v", plan)
		}
	})
}

func TestServer_ObservationTools(t *testing.T) {
	cs := connect(t, allServices(t), nil)
	for i, c := range []string{"go test ./...", "panic: nil map in handler", "fixed the nil map"} {
		var out struct{ ID int64 }
		callOK(t, cs, "observation_record", map[string]any{"type": []string{"command", "command_error", "decision"}[i], "content": c, "session": "s-1"}, &out)
		if out.ID == 0 {
			t.Fatal("no id")
		}
	}
	var found struct {
		Observations []struct{ Type, Snippet string }
		Total        int
	}
	callOK(t, cs, "observation_search", map[string]any{"query": "nil map"}, &found)
	if found.Total != 2 || found.Observations[0].Type != "decision" {
		t.Fatalf("search %+v", found)
	}
	callOK(t, cs, "observation_timeline", map[string]any{"session": "s-1", "limit": 2}, &found)
	if found.Total != 3 || len(found.Observations) != 2 || found.Observations[0].Type != "command_error" || found.Observations[1].Type != "decision" {
		t.Fatalf("latest two, in time order: %+v", found)
	}
	callOK(t, cs, "observation_timeline", map[string]any{"since": "2026-01-01T00:00:00Z", "limit": 2}, &found)
	if found.Observations[0].Type != "command" {
		t.Fatalf("from a start time, oldest first: %+v", found)
	}
}

// emptyContext builds the pack of a store with nothing to show.
type emptyContext struct{}

func (emptyContext) BuildContext(_ context.Context, req recall.ContextRequest) (*recall.ContextPack, error) {
	return &recall.ContextPack{Budget: req.Budget}, nil
}

// TestServer_EmptyResources reads every resource of a store with nothing
// to show: each content must carry text, since the go-sdk drops an empty
// "text" from the wire and clients (the TypeScript SDK) refuse contents
// with neither text nor blob.
func TestServer_EmptyResources(t *testing.T) {
	ctx := context.Background()
	svc := allServices(t)
	svc.contexts = emptyContext{}
	cs := connect(t, svc, nil)
	list, err := cs.ListResources(ctx, nil)
	if err != nil || len(list.Resources) == 0 {
		t.Fatalf("resources %+v %v", list, err)
	}
	for _, r := range list.Resources {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: r.URI})
		if err != nil || len(res.Contents) == 0 {
			t.Fatalf("%s: %+v %v", r.URI, res, err)
		}
		for _, c := range res.Contents {
			wire, _ := json.Marshal(c)
			if c.Text == "" && len(c.Blob) == 0 {
				t.Errorf("%s: contents without text or blob on the wire: %s", r.URI, wire)
			}
		}
	}
}
