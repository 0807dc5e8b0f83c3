package httpapi_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
	"github.com/recall-mem/recall/recalltest"
)

// A handler that panics answers 500 with the usual error body, the stack
// is logged, and the server goes on serving.
func TestServer_PanicIs500(t *testing.T) {
	var logs bytes.Buffer
	eng := openEngine(t)
	ts, c := newServer(t, &httpapi.Server{Engine: panicSearch{eng, recalltest.PanicSearcher{Searcher: eng.Searcher()}}, Loopback: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})

	resp, err := http.Get(ts.URL + "/v1/search?q=" + recalltest.PanicQuery)
	if err != nil {
		t.Fatalf("the connection was dropped: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", resp.StatusCode)
	}
	_, err = c.Search(context.Background(), recall.SearchQuery{Text: recalltest.PanicQuery})
	if recall.ErrorCode(err) != recall.EINTERNAL {
		t.Fatalf("client error %v, want %s", err, recall.EINTERNAL)
	}
	if !strings.Contains(logs.String(), "panic") || !strings.Contains(logs.String(), "PanicSearcher.Search") {
		t.Fatalf("log has no panic with its stack:\n%s", logs.String())
	}
	if _, err := c.PutMemory(context.Background(), &recall.Memory{Content: "still serving"}); err != nil {
		t.Fatalf("next request: %v", err)
	}
	if hits, err := c.Search(context.Background(), recall.SearchQuery{Text: "serving"}); err != nil || len(hits) != 1 {
		t.Fatalf("next search: %d hits, %v", len(hits), err)
	}
}

// panicSearch is the real engine whose search panics on
// recalltest.PanicQuery.
type panicSearch struct {
	httpapi.Engine
	search recall.Searcher
}

func (p panicSearch) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	return p.search.Search(ctx, q)
}
