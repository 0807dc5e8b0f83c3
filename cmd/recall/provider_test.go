package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// embedProvider is the script command "provider MODE CONFIG": it points the
// store's config file CONFIG at an OpenAI-compatible embeddings endpoint,
// a real HTTP server for the rest of the script. MODE is 500 (every
// request fails with HTTP 500), closed (nothing listens) or up (4-dimensional
// vectors).
func embedProvider(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: provider 500|closed|up CONFIG")
	}
	var h http.HandlerFunc
	switch args[0] {
	case "500", "closed":
		h = func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, `{"error": {"message": "model is loading"}}`, http.StatusInternalServerError)
		}
	case "up":
		h = func(w http.ResponseWriter, r *http.Request) {
			var req struct{ Input []string }
			if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			type item struct {
				Index     int       `json:"index"`
				Embedding []float32 `json:"embedding"`
			}
			out := struct {
				Data []item `json:"data"`
			}{}
			for i, s := range req.Input {
				out.Data = append(out.Data, item{i, []float32{float32(len(s)), 1, 2, 3}})
			}
			_ = json.NewEncoder(w).Encode(out)
		}
	default:
		ts.Fatalf("unknown provider mode %q", args[0])
	}
	srv := httptest.NewServer(h)
	url := srv.URL
	if args[0] == "closed" {
		srv.Close()
	} else {
		ts.Defer(srv.Close)
	}
	// dimensions is set so that a write tries one embedding, bounded by
	// its budget, rather than a dimension probe first.
	cfg := fmt.Sprintf("[retrieval]\nembedder = \"openai\"\nendpoint = %q\nmodel = \"m\"\ndimensions = 4\n", url+"/v1")
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(cfg), 0o600))
}
