package engine

import (
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a log that many goroutines may write.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// A server's concurrent calls may all fail to embed at once: the warning
// is still written once, without a race (run with -race).
func TestWarnEmbedding_OnceUnderConcurrency(t *testing.T) {
	var log lockedBuffer
	e := &Engine{Log: &log}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { e.warnEmbedding("recall: embedding waits\n") })
	}
	wg.Wait()
	if n := strings.Count(log.b.String(), "embedding waits"); n != 1 {
		t.Fatalf("warned %d times, want once", n)
	}
}
