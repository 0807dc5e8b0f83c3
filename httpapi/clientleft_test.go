package httpapi_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// A search whose client hangs up while it waits (for a slot of the
// engine's search gate) ends with context.Canceled: the server logs
// that at debug level, not as a failed request.
func TestServer_ClientThatLeftIsNoError(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	waiting := make(chan struct{})
	eng := waitingSearch{Engine: openEngine(t), waiting: waiting}
	ts := httptest.NewServer((&httpapi.Server{Engine: eng, Loopback: true, Logger: log}).Handler())
	hangUp, cancel := context.WithCancel(context.Background())
	sent := make(chan error, 1)
	go func() {
		_, err := httpapi.NewClient(ts.URL, "").Search(hangUp, recall.SearchQuery{Text: "canary"})
		sent <- err
	}()
	select {
	case <-waiting:
	case <-time.After(time.Minute):
		t.Fatal("the search never started")
	}
	cancel()
	if err := <-sent; !errors.Is(err, context.Canceled) {
		t.Fatalf("the hung-up request: %v", err)
	}
	ts.Close() // waits for the handler, and its log line
	if strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "client left") {
		t.Fatalf("a client that hung up was logged as:\n%s", logs.String())
	}
}

// waitingSearch is the real engine whose searches wait for their context
// to end, as a search queued behind a held slot does, saying on waiting
// that one does.
type waitingSearch struct {
	httpapi.Engine
	waiting chan struct{}
}

func (w waitingSearch) Search(ctx context.Context, _ recall.SearchQuery) ([]*recall.SearchHit, error) {
	close(w.waiting)
	<-ctx.Done()
	return nil, ctx.Err()
}
