package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/openai"
	"github.com/recall-mem/recall/openai/openaitest"
)

var testRollup = &recall.Rollup{
	BucketType: "daily", BucketStart: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), BucketEnd: time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC),
	MemoryType: "preference", Key: "editor", Entries: 3, Confidence: 0.33,
	Values:  []recall.RollupValue{{Text: "uses helix", Count: 1}, {Text: "uses vim", Count: 2}},
	Summary: `editor (preference): uses helix (said once; changed from "uses vim", said twice)`,
}

func TestSummarizer_SummarizeRollup(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		var got map[string]any
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" {
				http.Error(w, "wrong request", http.StatusBadRequest)
				return
			}
			json.NewDecoder(r.Body).Decode(&got)
			w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"  The user now uses Helix,\n after Vim twice. "}}]}`))
		}))
		defer srv.Close()
		c := &openai.Summarizer{Endpoint: srv.URL + "/v1/", Model: "m", APIKey: "k"}
		text, err := c.SummarizeRollup(ctx, testRollup)
		if err != nil {
			t.Fatal(err)
		}
		if text != "The user now uses Helix, after Vim twice." {
			t.Fatalf("text %q", text)
		}
		msgs := got["messages"].([]any)
		if got["model"] != "m" || len(msgs) != 2 || !strings.Contains(msgs[1].(map[string]any)["content"].(string), `"uses vim" said 2 time(s)`) {
			t.Fatalf("request %v", got)
		}
	})
	for name, handler := range map[string]http.HandlerFunc{
		"ErrServer": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"error":{"message":"model not loaded"}}`))
		},
		"ErrNoChoices": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"choices":[]}`)) },
		"ErrEmpty": func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"choices":[{"message":{"content":"  "}}]}`))
		},
		"ErrGarbage": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`<html>`)) },
		"ErrTimeout": func(w http.ResponseWriter, r *http.Request) { time.Sleep(300 * time.Millisecond) },
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(handler)
			defer srv.Close()
			c := &openai.Summarizer{Endpoint: srv.URL, Model: "m", Timeout: 100 * time.Millisecond}
			if _, err := c.SummarizeRollup(ctx, testRollup); recall.ErrorCode(err) != recall.EUNAVAILABLE {
				t.Fatalf("err = %v", err)
			}
		})
	}
	t.Run("ErrServerSaysWhy", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":{"message":"model not loaded"}}`))
		}))
		defer srv.Close()
		c := &openai.Summarizer{Endpoint: srv.URL, Model: "m"}
		_, err := c.SummarizeRollup(ctx, testRollup)
		if recall.ErrorCode(err) != recall.EUNAVAILABLE || !strings.Contains(err.Error(), "HTTP 503: model not loaded") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrBadEndpoint", func(t *testing.T) {
		c := &openai.Summarizer{Endpoint: "http://[::1", Model: "m"}
		if _, err := c.SummarizeRollup(ctx, testRollup); recall.ErrorCode(err) != recall.EINVALID {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrUnreachable", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		srv.Close()
		c := &openai.Summarizer{Endpoint: srv.URL, Model: "m"}
		if _, err := c.SummarizeRollup(ctx, testRollup); recall.ErrorCode(err) != recall.EUNAVAILABLE {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestSummarizer_OpenAITest: the shared test server answers chat
// completions as well as embeddings, up and down.
func TestSummarizer_OpenAITest(t *testing.T) {
	ctx := context.Background()
	var down atomic.Bool
	srv := httptest.NewServer(openaitest.Handler(down.Load))
	defer srv.Close()
	c := &openai.Summarizer{Endpoint: srv.URL + "/v1", Model: "m"}
	if text, err := c.SummarizeRollup(ctx, testRollup); err != nil || text != openaitest.Summary {
		t.Fatalf("text %q, err %v", text, err)
	}
	e := openai.New(srv.URL+"/v1", "m", "")
	if vs, err := e.Embed(ctx, []string{"abc"}); err != nil || len(vs) != 1 || len(vs[0]) != openaitest.Dim {
		t.Fatalf("vectors %v, err %v", vs, err)
	}
	down.Store(true)
	if _, err := c.SummarizeRollup(ctx, testRollup); recall.ErrorCode(err) != recall.EUNAVAILABLE || !strings.Contains(err.Error(), "model is loading") {
		t.Fatalf("err = %v", err)
	}
}
