package bench

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// The serve client takes a server's answer as the server writes it (the
// hits of recall.SearchHit, context and all) and rejects what is not an
// answer: another status, JSON that is not an object with a hits list,
// a hit without a memory id, more hits than asked for, anything after
// the object.
func TestServeClient_ChecksEveryAnswer(t *testing.T) {
	answer, err := json.Marshal(map[string]any{"hits": []*recall.SearchHit{
		{Memory: &recall.Memory{ID: "tr1", Content: "a", Tags: []string{"x"}}, Score: 1.5, Snippet: "a",
			Context: []*recall.SearchHit{{Memory: &recall.Memory{ID: "tr0"}, Score: 0.2}}},
		{Memory: &recall.Memory{ID: "tr2"}, Score: 0.5},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var body string
	status, closing := http.StatusOK, false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/search" || r.URL.Query().Get("q") != "what & why?" || r.URL.Query().Get("mode") != "bm25" ||
			r.URL.Query().Get("limit") != "2" {
			http.Error(w, "bad request "+r.URL.String(), http.StatusBadRequest)
			return
		}
		if closing {
			w.Header().Set("Connection", "close")
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	c := newServeClient(srv.URL, 2)
	ctx := context.Background()
	// A long answer comes in chunks; a connection the server closes
	// after its answer is not used again.
	long := strings.Replace(string(answer), `"content":"a"`, `"content":"`+strings.Repeat("a", 20000)+`"`, 1)
	for _, ok := range []struct {
		body    string
		closing bool
		hits    int
	}{{string(answer) + "\n", false, 2}, {`{"hits":[]}`, false, 0}, {long, false, 2}, {long, true, 2}, {string(answer), true, 2}, {string(answer), false, 2}} {
		body, closing = ok.body, ok.closing
		if n, err := c.search(ctx, "what & why?", "bm25", 2); err != nil || n != ok.hits {
			t.Errorf("answer %.60s (closing %v): %d hits, %v; want %d", ok.body, ok.closing, n, err, ok.hits)
		}
	}
	closing = false
	for _, bad := range []string{``, `null`, `{}`, `{"hits":null}`, `[]`, `{"hits":[{"score":1}]}`,
		`{"hits":[{"memory":{"id":""}}]}`, `{"hits":[{"memory":{"id":"a"}},{"memory":{"id":"b"}},{"memory":{"id":"c"}}]}`,
		`{"hits":[]}{}`, `{"hits":[]} x`, `{"hits":[{"memory":{"id":"a"}]}`, string(answer[:len(answer)-1])} {
		body = bad
		if n, err := c.search(ctx, "what & why?", "bm25", 2); err == nil {
			t.Errorf("answer %q: %d hits, no error", bad, n)
		}
	}
	body, status = string(answer), http.StatusInternalServerError
	if _, err := c.search(ctx, "what & why?", "bm25", 2); err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("status 500: %v", err)
	}
}

// Concurrent callers of the serve client each keep their connection:
// 20 of them sending 400 requests open at most 20. With only the idle
// limit at 20 (MaxConnsPerHost unset) the transport's dial race opened
// 23-39 in 18 of 30 runs on a loaded machine.
func TestServeClient_KeepsEachCallersConnection(t *testing.T) {
	var opened atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"hits":[]}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	const callers = 20
	c := newServeClient(srv.URL, callers)
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if _, err := c.search(context.Background(), "q", "hybrid", 10); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := opened.Load(); n > callers {
		t.Errorf("%d connections opened for %d callers", n, callers)
	}
}

// A cancelled context ends a request the server has not answered, and
// the client still answers the next request on another connection.
func TestServeClient_CancelEndsARequest(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("q") == "slow" {
			<-release
		}
		_, _ = w.Write([]byte(`{"hits":[]}`))
	}))
	defer srv.Close()
	defer close(release)
	c := newServeClient(srv.URL, 2)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.search(ctx, "slow", "hybrid", 10)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled request: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled request did not end")
	}
	if n, err := c.search(context.Background(), "fast", "hybrid", 10); err != nil || n != 0 {
		t.Errorf("the next request: %d hits, %v", n, err)
	}
}
