package mcp_test

import (
	"testing"

	"github.com/recall-mem/recall/internal/buildinfo"
	"github.com/recall-mem/recall/mcp"
)

// With no Version option the server reports the binary's own, the same
// string `recall version` is built from.
func TestServer_DefaultVersionIsBuildInfo(t *testing.T) {
	cs := connectServer(t, mcp.NewServer(newEngine(t), mcp.Options{}))
	if got, want := cs.InitializeResult().ServerInfo.Version, buildinfo.Version(); got != want || got == "" {
		t.Errorf("serverInfo.version = %q, want %q", got, want)
	}
}
