package engine_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/httpapi"
	"github.com/recall-mem/recall/mcp"
	"github.com/recall-mem/recall/sqlite"
)

// TestEngine_SearchSlotsAnswerEverything opens one store twice, once
// with a gate of one search at a time, and has concurrent searches,
// context packs (a search inside) and reads by id go through the gated
// engine: every call answers, and as the ungated engine does.
func TestEngine_SearchSlotsAnswerEverything(t *testing.T) {
	ctx := context.Background()
	plain := openEngine(t)
	if engine.SearchSlotsOf(plain) != 0 {
		t.Fatal("an engine opened without SearchSlots gates its searches")
	}
	gated := engine.New(testParts())
	gated.StoreFlag, gated.Log, gated.SearchSlots = plain.StoreFlag, &bytes.Buffer{}, 1
	if err := gated.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer gated.Close()
	if n := engine.SearchSlotsOf(gated); n != 1 {
		t.Fatalf("SearchSlots 1 opened a gate of %d", n)
	}
	var ids []string
	for i := range 6 {
		res, err := plain.Put(ctx, &recall.Memory{Key: fmt.Sprintf("deploy-%d", i), Content: fmt.Sprintf("Deploy step %d goes through staging.", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Memory.ID)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	q := recall.SearchQuery{Text: "deploy staging", Limit: 5, Now: now}
	creq := recall.ContextRequest{Query: "deploy staging", Budget: 2000, Now: now}
	wantHits, err := plain.Search(ctx, q)
	if err != nil || len(wantHits) == 0 {
		t.Fatalf("ungated search: %v, %v", wantHits, err)
	}
	wantPack, err := plain.Context(ctx, creq)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			hits, err := gated.Search(ctx, q)
			if err != nil || !reflect.DeepEqual(hitIDs(hits), hitIDs(wantHits)) {
				t.Errorf("gated search %d: %v, %v; want %v", i, hitIDs(hits), err, hitIDs(wantHits))
			}
		})
		wg.Go(func() {
			pack, err := gated.Context(ctx, creq)
			if err != nil || pack.Text != wantPack.Text {
				t.Errorf("gated context pack %d: %v\n%s\nwant\n%s", i, err, pack.Text, wantPack.Text)
			}
		})
		wg.Go(func() {
			if m, err := gated.Get(ctx, ids[i%len(ids)], ""); err != nil || m.ID != ids[i%len(ids)] {
				t.Errorf("get %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if n := engine.SearchSlotsOf(gated); n != 1 {
		t.Fatalf("after the calls the gate has %d slots, want 1", n)
	}
}

func hitIDs(hits []*recall.SearchHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Memory.ID)
	}
	return out
}

// TestEngine_SearchSlotsLeaveOtherCallsAlone fills the gate: a search
// waits in line, while writes, reads by id, lists and the context pack's
// other sections do not wait for it, and the search runs once a slot
// is free.
func TestEngine_SearchSlotsLeaveOtherCallsAlone(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	gated := engine.New(testParts())
	gated.StoreFlag, gated.Log, gated.SearchSlots = e.StoreFlag, &bytes.Buffer{}, 1
	if err := gated.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer gated.Close()
	release := engine.HoldSearchSlot(gated)
	found := make(chan []*recall.SearchHit, 1)
	go func() {
		hits, err := gated.Search(ctx, recall.SearchQuery{Text: "canary"})
		if err != nil {
			t.Error(err)
		}
		found <- hits
	}()
	waitFor(t, "the search to queue", func() bool { return engine.SearchesWaiting(gated) == 1 })
	res, err := gated.Put(ctx, &recall.Memory{Key: "canary", Tier: recall.TierWorking, Content: "Releases go out behind a canary."})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := gated.Get(ctx, res.Memory.ID, ""); err != nil || m.Key != "canary" {
		t.Fatalf("get while a search waits: %v, %v", m, err)
	}
	if ms, n, err := gated.List(ctx, recall.MemoryFilter{Limit: 10}); err != nil || n != 1 || len(ms) != 1 {
		t.Fatalf("list while a search waits: %d, %v", n, err)
	}
	// Without a query the pack searches nothing: its sections answer.
	if pack, err := gated.Context(ctx, recall.ContextRequest{Budget: 2000}); err != nil || !strings.Contains(pack.Text, "canary") {
		t.Fatalf("context pack without a query while a search waits: %v\n%v", err, pack)
	}
	select {
	case <-found:
		t.Fatal("a search ran while the only slot was held")
	default:
	}
	release()
	if hits := <-found; len(hits) != 1 || hits[0].Memory.ID != res.Memory.ID {
		t.Fatalf("the queued search found %v, want the canary", hitIDs(hits))
	}
}

// TestEngine_SearchSlotsHungUpClientLeavesTheQueue sends a REST search
// to a gated engine whose only slot is held: when the client hangs up,
// its request leaves the queue (net/http ends the request's context),
// and the next search runs as soon as the slot is free.
func TestEngine_SearchSlotsHungUpClientLeavesTheQueue(t *testing.T) {
	hungUpLeavesTheQueue(t, func(ctx context.Context, url string) (*http.Request, error) {
		return http.NewRequestWithContext(ctx, http.MethodGet, url+"/v1/search?q=canary", nil)
	})
}

// TestEngine_SearchSlotsHungUpMCPClientLeavesTheQueue is the same for a
// memory_search call over MCP's streamable HTTP, whose SDK does not end
// a call's context when its client hangs up (mcp.HTTPHandler does).
func TestEngine_SearchSlotsHungUpMCPClientLeavesTheQueue(t *testing.T) {
	const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"canary"}}}`
	hungUpLeavesTheQueue(t, func(ctx context.Context, url string) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/mcp", strings.NewReader(call))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
		}
		return req, err
	})
}

// hungUpLeavesTheQueue serves a gated engine whose only slot is held over
// REST and MCP, sends the search newRequest makes and hangs up once it
// waits for the slot: it must leave the queue, and a search after it run
// as soon as the slot is free.
func hungUpLeavesTheQueue(t *testing.T, newRequest func(ctx context.Context, url string) (*http.Request, error)) {
	ctx := context.Background()
	e := openEngine(t)
	if _, err := e.Put(ctx, &recall.Memory{Key: "canary", Content: "Releases go out behind a canary."}); err != nil {
		t.Fatal(err)
	}
	gated := engine.New(testParts())
	gated.StoreFlag, gated.Log, gated.SearchSlots = e.StoreFlag, &bytes.Buffer{}, 1
	if err := gated.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer gated.Close()
	srv := httptest.NewServer((&httpapi.Server{Engine: gated, Loopback: true,
		MCP: mcp.HTTPHandler(mcp.NewServer(gated, mcp.Options{}), nil)}).Handler())
	defer srv.Close()
	release := sync.OnceFunc(engine.HoldSearchSlot(gated))
	defer release() // before the server's Close, which waits for its handlers
	hangUp, cancel := context.WithCancel(ctx)
	req, err := newRequest(hangUp, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	sent := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		sent <- err
	}()
	waitFor(t, "the request to queue", func() bool { return engine.SearchesWaiting(gated) == 1 })
	cancel()
	select {
	case err := <-sent:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the hung-up request: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the client never gave up its request")
	}
	waitFor(t, "the hung-up request to leave the queue", func() bool { return engine.SearchesWaiting(gated) == 0 })
	release()
	hits, err := httpapi.NewClient(srv.URL, "").Search(ctx, recall.SearchQuery{Text: "canary"})
	if err != nil || len(hits) != 1 {
		t.Fatalf("search after the hang-up: %v, %v", hitIDs(hits), err)
	}
	if n := engine.SearchSlotsOf(gated); n != 1 {
		t.Fatalf("after the hang-up the gate has %d slots, want 1", n)
	}
}

// waitFor polls cond until it holds, failing after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

// TestEngine_SearchSlotsOnlyForLocalSearches opens stores with SearchSlots
// 1: the gate holds where searches are this process's CPU work (a SQLite
// file with the built-in encoder or an inline embedder), not with a
// remote embedder or on a database server.
func TestEngine_SearchSlotsOnlyForLocalSearches(t *testing.T) {
	for _, c := range []struct {
		name, embedder, url string
		inline              bool
		slots               int
	}{
		{name: "inline embedder", embedder: "hashing", inline: true, slots: 1},
		{name: "built-in encoder", embedder: "builtin", slots: 1},
		{name: "remote embedder", embedder: "openai"},
		{name: "database server", embedder: "hashing", inline: true, url: "postgres://recall@localhost:5432/recall"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			config := fmt.Sprintf("[retrieval]\nembedder = %q\n", c.embedder)
			if err := os.WriteFile(filepath.Join(dir, engine.ConfigFile), []byte(config), 0o600); err != nil {
				t.Fatal(err)
			}
			e := engine.New(engine.Parts{
				Backend: fileBackend{path: filepath.Join(dir, "store.db")}, // a URL opens a SQLite file too
				NewEmbedder: func(engine.RetrievalConfig) (recall.Embedder, bool, error) {
					return letters{}, c.inline, nil
				},
			})
			e.Log, e.SearchSlots = &bytes.Buffer{}, 1
			if err := e.OpenAt(context.Background(), &engine.Location{Dir: dir, URL: c.url}, engine.OpenOptions{Create: true}); err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if n := engine.SearchSlotsOf(e); n != c.slots {
				t.Fatalf("SearchSlots 1 opened a gate of %d slots, want %d", n, c.slots)
			}
		})
	}
}

// fileBackend opens every store, a server's URL too, as the SQLite file
// at path.
type fileBackend struct {
	sqlite.Backend
	path string
}

func (b fileBackend) OpenStore(_ string, o recall.StoreOptions) (recall.Store, error) {
	return b.Backend.OpenStore(b.path, o)
}

// TestEngine_SearchSlotsRemoteEmbedderHoldsNoSlot fills the slots of an
// engine whose embedder is remote with hybrid searches waiting on their
// query embeddings: a BM25 search, which needs no embedding, still runs.
func TestEngine_SearchSlotsRemoteEmbedderHoldsNoSlot(t *testing.T) {
	ctx := context.Background()
	e := openEngine(t)
	if _, err := e.Put(ctx, &recall.Memory{Key: "canary", Content: "Releases go out behind a canary."}); err != nil {
		t.Fatal(err)
	}
	config := "[retrieval]\nembedder = \"openai\"\n"
	if err := os.WriteFile(filepath.Join(e.Location.Dir, engine.ConfigFile), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	slow := &stalledEmbedder{embedding: make(chan struct{}, 2), release: make(chan struct{})}
	remote := engine.New(engine.Parts{Backend: sqlite.Backend{},
		NewEmbedder: func(engine.RetrievalConfig) (recall.Embedder, bool, error) { return slow, false, nil }})
	remote.StoreFlag, remote.Log, remote.SearchSlots = e.StoreFlag, &bytes.Buffer{}, 2
	if err := remote.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	var wg sync.WaitGroup
	defer wg.Wait()
	release := sync.OnceFunc(func() { close(slow.release) })
	defer release()
	for range 2 {
		wg.Go(func() {
			if _, err := remote.Search(ctx, recall.SearchQuery{Text: "canary", Mode: recall.ModeHybrid}); err != nil {
				t.Error(err)
			}
		})
	}
	for i := range 2 {
		select {
		case <-slow.embedding:
		case <-time.After(time.Minute):
			t.Fatalf("%d of 2 hybrid searches reached the embedder", i)
		}
	}
	found := make(chan []*recall.SearchHit, 1)
	go func() {
		hits, err := remote.Search(ctx, recall.SearchQuery{Text: "canary", Mode: recall.ModeBM25})
		if err != nil {
			t.Error(err)
		}
		found <- hits
	}()
	select {
	case hits := <-found:
		if len(hits) != 1 {
			t.Fatalf("the BM25 search found %v, want the canary", hitIDs(hits))
		}
	case <-time.After(time.Minute):
		t.Fatal("a BM25 search waited a minute")
	}
	// The hybrid searches give up on the embedder after the query timeout
	// and free their slots: the BM25 search must not have waited for that.
	if slow.answered.Load() {
		t.Fatal("a BM25 search waited behind hybrid searches waiting on a remote embedder")
	}
}

// stalledEmbedder is a remote embedder whose every call says so on
// embedding, then waits for release or its context's end: a provider
// that answers slowly. answered says whether a call has returned.
type stalledEmbedder struct {
	letters
	embedding chan struct{}
	release   chan struct{}
	answered  atomic.Bool
}

func (s *stalledEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	defer s.answered.Store(true)
	select {
	case s.embedding <- struct{}{}:
	default:
	}
	select {
	case <-s.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.letters.Embed(ctx, texts)
}
