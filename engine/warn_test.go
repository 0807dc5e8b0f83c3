package engine

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// countingLog counts the warnings written to it, from any goroutine.
type countingLog struct{ warnings atomic.Int32 }

func (c *countingLog) Write(p []byte) (int, error) {
	c.warnings.Add(int32(strings.Count(string(p), "\n")))
	return len(p), nil
}

// A server's concurrent calls may all fail to embed at once: the warning
// is still written once, without a race (run with -race).
func TestWarnEmbedding_OnceUnderConcurrency(t *testing.T) {
	var log countingLog
	e := &Engine{Log: &log}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { e.warnEmbedding("recall: embedding waits\n") })
	}
	wg.Wait()
	if n := log.warnings.Load(); n != 1 {
		t.Fatalf("warned %d times, want once", n)
	}
}
