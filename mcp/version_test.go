package mcp_test

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recall-mem/recall/internal/buildinfo"
	"github.com/recall-mem/recall/mcp"
)

// With no Version option the server reports the binary's own, the same
// string `recall version` is built from.
func TestServer_DefaultVersionIsBuildInfo(t *testing.T) {
	ctx := context.Background()
	server := mcp.NewServer(newEngine(t), mcp.Options{})
	ct, st := sdk.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "tester", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	if got, want := cs.InitializeResult().ServerInfo.Version, buildinfo.Version(); got != want || got == "" {
		t.Errorf("serverInfo.version = %q, want %q", got, want)
	}
}
