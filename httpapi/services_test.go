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
	_, c := newServer(t, &httpapi.Server{Services: sqliteServices(openDB(t)), Loopback: true})
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
		if err != nil || len(hits) != 2 || hits[0].Explain == nil || hits[0].Snippet == "" {
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
	svc := sqliteServices(openDB(t))
	svc.Context = fake
	_, c := newServer(t, &httpapi.Server{Services: svc, Loopback: true})
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
