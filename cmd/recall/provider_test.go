package main

import (
	"fmt"
	"net/http/httptest"
	"os"

	"github.com/recall-mem/recall/openai/openaitest"
	"github.com/rogpeppe/go-internal/testscript"
)

// embedProvider is the script command "provider MODE CONFIG": it points the
// store's config file CONFIG at an OpenAI-compatible embeddings endpoint,
// a real HTTP server for the rest of the script. MODE is 500 (every
// request fails with HTTP 500), closed (nothing listens) or up.
func embedProvider(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: provider 500|closed|up CONFIG")
	}
	if args[0] != "500" && args[0] != "closed" && args[0] != "up" {
		ts.Fatalf("unknown provider mode %q", args[0])
	}
	srv := httptest.NewServer(openaitest.Handler(func() bool { return args[0] != "up" }))
	url := srv.URL
	if args[0] == "closed" {
		srv.Close()
	} else {
		ts.Defer(srv.Close)
	}
	// dimensions is set so that a write tries one embedding, bounded by
	// its budget, rather than a dimension probe first.
	cfg := fmt.Sprintf("[retrieval]\nembedder = \"openai\"\nendpoint = %q\nmodel = \"m\"\ndimensions = %d\n", url+"/v1", openaitest.Dim)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(cfg), 0o600))
}
