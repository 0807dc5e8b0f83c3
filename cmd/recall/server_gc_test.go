package main

import (
	"runtime/debug"
	"testing"
)

// A server collects less often than the default, unless GOGC is set.
func TestServerGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "")
	serverGC()
	if got := debug.SetGCPercent(100); got != serverGCPercent {
		t.Errorf("GC percent %d, want %d", got, serverGCPercent)
	}
	t.Setenv("GOGC", "150")
	serverGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent %d, want it left alone (100)", got)
	}
}
