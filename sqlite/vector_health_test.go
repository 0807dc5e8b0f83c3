package sqlite_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/openai"
	"github.com/recall-mem/recall/openai/openaitest"
	"github.com/recall-mem/recall/sqlite"
)

// provider is an OpenAI-compatible embeddings endpoint that answers 500
// while down is set.
func provider(t *testing.T, down *atomic.Bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(openaitest.Handler(down.Load))
	t.Cleanup(srv.Close)
	return srv
}

// TestVectorService_ProviderFailureRecorded: a failing provider's error is
// kept in the store with the queue, for doctor in another process, until
// an embedding succeeds.
func TestVectorService_ProviderFailureRecorded(t *testing.T) {
	ctx := context.Background()
	t.Run("HTTP500", func(t *testing.T) {
		var down atomic.Bool
		down.Store(true)
		srv := provider(t, &down)
		db := MustOpenDB(t)
		e := openai.New(srv.URL, "m", "")
		e.Dimensions, e.MaxRetries = openaitest.Dim, -1
		vs := sqlite.NewVectorService(db, e, nil)
		put(t, sqlite.NewMemoryService(db), "Deploy rule", "Deploys go through staging.")
		if vs.QueuedHere() != 1 {
			t.Fatalf("queued here = %d", vs.QueuedHere())
		}
		if err := vs.DrainQueue(ctx, 0); recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("drain: %v", err)
		}
		// Another process opening the store sees the failure.
		st, err := sqlite.NewVectorService(db, e, nil).Stats(ctx)
		if err != nil || st.Queued != 1 || !strings.Contains(st.ProviderError, "HTTP 500: model is loading") || st.ProviderErrorAt == nil {
			t.Fatalf("stats while down = %+v, %v", st, err)
		}
		down.Store(false)
		if err := vs.DrainQueue(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if st, err := vs.Stats(ctx); err != nil || st.Queued != 0 || st.ProviderError != "" || st.ProviderErrorAt != nil {
			t.Fatalf("stats after recovery = %+v, %v", st, err)
		}
	})
	t.Run("Closed", func(t *testing.T) {
		var down atomic.Bool
		srv := provider(t, &down)
		url := srv.URL
		srv.Close() // nothing listens there any more
		db := MustOpenDB(t)
		e := openai.New(url, "m", "") // no dimension: it must ask the provider
		e.MaxRetries = -1
		vs := sqlite.NewVectorService(db, e, nil)
		mem := sqlite.NewMemoryService(db)
		if err := vs.DrainQueue(ctx, 0); err != nil {
			t.Fatalf("drain of an empty queue: %v", err) // nothing waits: nothing to say
		}
		put(t, mem, "Deploy rule", "Deploys go through staging.")
		if err := vs.DrainQueue(ctx, 0); recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("drain: %v", err)
		}
		st, err := vs.Stats(ctx)
		if err != nil || st.Queued != 1 || !strings.Contains(st.ProviderError, "connection refused") {
			t.Fatalf("stats = %+v, %v", st, err)
		}
	})
	t.Run("ClosedWithinBudget", func(t *testing.T) {
		// A write's short budget ends during the retries of the dimension
		// probe: the refusals seen before it are still a verdict.
		var down atomic.Bool
		srv := provider(t, &down)
		url := srv.URL
		srv.Close()
		db := MustOpenDB(t)
		e := openai.New(url, "m", "") // default retries, 0.5 s apart
		vs := sqlite.NewVectorService(db, e, nil)
		put(t, sqlite.NewMemoryService(db), "Deploy rule", "Deploys go through staging.")
		if err := vs.DrainQueue(ctx, 200*time.Millisecond); recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("drain: %v", err)
		}
		st, err := vs.Stats(ctx)
		if err != nil || st.Queued != 1 || !strings.Contains(st.ProviderError, "connection refused") {
			t.Fatalf("stats = %+v, %v", st, err)
		}
	})
}
