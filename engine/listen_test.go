package engine

import (
	"net"
	"testing"
)

// serve prints the host it was asked for, not Go's name for it.
func TestListenAddr(t *testing.T) {
	bound := &net.TCPAddr{IP: net.IPv6unspecified, Port: 7077}
	for asked, want := range map[string]string{
		"0.0.0.0:7077":   "0.0.0.0:7077",
		":7077":          "0.0.0.0:7077",
		"127.0.0.1:0":    "127.0.0.1:7077",
		"localhost:7077": "localhost:7077",
		"[::1]:7077":     "[::1]:7077",
	} {
		if got := ListenAddr(asked, bound); got != want {
			t.Errorf("ListenAddr(%q) = %q, want %q", asked, got, want)
		}
	}
}
