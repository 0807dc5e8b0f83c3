package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// fakeContext stands in for the context-pack builder, which lives on
// another branch: it echoes the request so the test can see it arrived.
type fakeContext struct{ got recall.ContextRequest }

func (f *fakeContext) BuildContext(_ context.Context, req recall.ContextRequest) (*recall.ContextPack, error) {
	if req.Budget <= 0 {
		return nil, recall.Errorf(recall.EINVALID, "Budget must be positive.")
	}
	f.got = req
	return &recall.ContextPack{Text: "## Core\n- " + req.Query, Tokens: 4, Budget: req.Budget,
		Sections: []recall.ContextSection{{Name: "core", Tokens: 4, Items: []recall.ContextItem{{ID: "tr0000000001", Kind: "memory", Text: req.Query, Tokens: 4}}}}}, nil
}

func TestClient_Search(t *testing.T) {
	ctx := context.Background()
	_, c := newServer(t, &httpapi.Server{Engine: openEngine(t), Loopback: true})
	for _, m := range []*recall.Memory{
		{Title: "Auth", Content: "OAuth tokens rotate hourly.", Tags: []string{"api"}},
		{Title: "DB", Content: "Postgres tokens are long lived.", Tags: []string{"db"}},
	} {
		if _, err := c.PutMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("OK", func(t *testing.T) {
		hits, err := c.Search(ctx, recall.SearchQuery{Text: "tokens", Explain: true, Now: time.Now()})
		if err != nil || len(hits) != 2 || hits[0].Explain == nil { // snippets come from the ranker, not the store
			t.Fatalf("hits %+v err %v", hits, err)
		}
	})
	t.Run("FilterAndLimit", func(t *testing.T) {
		hits, err := c.Search(ctx, recall.SearchQuery{Text: "tokens", Limit: 5, Filter: recall.MemoryFilter{Fields: map[string][]string{"tags": {"db"}}}})
		if err != nil || len(hits) != 1 || hits[0].Memory.Title != "DB" {
			t.Fatalf("hits %+v err %v", hits, err)
		}
		hits, err = c.Search(ctx, recall.SearchQuery{Text: "tokens", Limit: 1})
		if err != nil || len(hits) != 1 {
			t.Fatalf("limit: %d hits, %v", len(hits), err)
		}
	})
	t.Run("NoHits", func(t *testing.T) {
		hits, err := c.Search(ctx, recall.SearchQuery{Text: "kubernetes"})
		if err != nil || len(hits) != 0 {
			t.Fatalf("hits %+v err %v", hits, err)
		}
	})
}

func TestClient_BuildContext(t *testing.T) {
	ctx := context.Background()
	fake := &fakeContext{}
	_, c := newServer(t, &httpapi.Server{Engine: fakeEngine{Engine: openEngine(t), ctx: fake}, Loopback: true})
	pack, err := c.BuildContext(ctx, recall.ContextRequest{Query: "deploys", Budget: 500, Filter: recall.MemoryFilter{Collection: ptr("ops"), Fields: map[string][]string{"tags": {"a"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if pack.Budget != 500 || len(pack.Sections) != 1 || pack.Sections[0].Items[0].Text != "deploys" {
		t.Fatalf("pack %+v", pack)
	}
	if fake.got.Filter.Collection == nil || *fake.got.Filter.Collection != "ops" || fake.got.Filter.Fields["tags"][0] != "a" {
		t.Fatalf("filter did not arrive: %+v", fake.got.Filter)
	}
	_, err = c.BuildContext(ctx, recall.ContextRequest{Budget: 0})
	if recall.ErrorCode(err) != recall.EINVALID {
		t.Fatalf("got %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// fakeSessions stands in for the session lifecycle.
type fakeSessions struct{ started []*recall.Session }

func (f *fakeSessions) StartSession(_ context.Context, s *recall.Session) (*recall.SessionStartReport, error) {
	s.ID, s.State = "s-1", "hot"
	f.started = append(f.started, s)
	return &recall.SessionStartReport{Session: s, Context: "Last time: fixed the build."}, nil
}

func (f *fakeSessions) EndSession(_ context.Context, end recall.SessionEnd) (*recall.Session, error) {
	if end.ID != "s-1" {
		return nil, recall.Errorf(recall.ENOTFOUND, "No session %q: start one first.", end.ID)
	}
	return &recall.Session{ID: end.ID, Summary: end.Summary, State: "hot"}, nil
}

func (f *fakeSessions) FindSessions(_ context.Context, limit int) ([]*recall.Session, error) {
	return f.started[:min(limit, len(f.started))], nil
}

// fakeEngine is the real engine with the context builder, the sessions
// and the maintenance plan stood in for by the fakes.
type fakeEngine struct {
	httpapi.Engine
	ctx  *fakeContext
	sess *fakeSessions
}

func (f fakeEngine) Context(ctx context.Context, req recall.ContextRequest) (*recall.ContextPack, error) {
	return f.ctx.BuildContext(ctx, req)
}

func (f fakeEngine) StartSession(ctx context.Context, s *recall.Session) (*recall.SessionStartReport, error) {
	return f.sess.StartSession(ctx, s)
}

func (f fakeEngine) EndSession(ctx context.Context, end recall.SessionEnd) (*recall.Session, error) {
	return f.sess.EndSession(ctx, end)
}

func (f fakeEngine) ListSessions(ctx context.Context, limit int) ([]*recall.Session, error) {
	return f.sess.FindSessions(ctx, limit)
}

func (fakeEngine) PlanMaintenance(context.Context, string, time.Time) (*recall.MaintainPlan, error) {
	return &recall.MaintainPlan{WorkingWords: 1700, Target: 1500}, nil
}

func TestClient_SessionsAndPlan(t *testing.T) {
	ctx := context.Background()
	_, c := newServer(t, &httpapi.Server{Engine: fakeEngine{Engine: openEngine(t), sess: &fakeSessions{}}, Loopback: true})
	rep, err := c.StartSession(ctx, &recall.Session{Project: "web", Agent: "tester"})
	if err != nil || rep.Session.ID != "s-1" || rep.Session.Project != "web" || rep.Context == "" {
		t.Fatalf("start %+v %v", rep, err)
	}
	s, err := c.EndSession(ctx, recall.SessionEnd{ID: "s-1", Summary: "Fixed it."})
	if err != nil || s.Summary != "Fixed it." {
		t.Fatalf("end %+v %v", s, err)
	}
	if _, err := c.EndSession(ctx, recall.SessionEnd{ID: "s-9", Summary: "x"}); recall.ErrorCode(err) != recall.ENOTFOUND {
		t.Fatalf("unknown session: %v", err)
	}
	if ss, err := c.FindSessions(ctx, 5); err != nil || len(ss) != 1 {
		t.Fatalf("find %v %v", ss, err)
	}
	if plan, err := c.Plan(ctx); err != nil || plan.WorkingWords != 1700 {
		t.Fatalf("plan %+v %v", plan, err)
	}
}
