package sqlite

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/recall-mem/recall"
)

// countingRedactor counts the contents it cleaned (those starting with
// "content"), changing nothing.
type countingRedactor struct{ n atomic.Int64 }

func (r *countingRedactor) Redact(s string) (string, map[string]int) {
	if strings.HasPrefix(s, "content") {
		r.n.Add(1)
	}
	return s, nil
}

// TestImportMemories_WritesWhileCleaning: a batched import begins its
// transaction once its first chunk is cleaned, not after the whole
// batch, so that the writer does not wait for every memory's redaction
// (it did: the transaction began with all 1,000 cleaned); what it writes
// is every memory, redacted, as before.
func TestImportMemories_WritesWhileCleaning(t *testing.T) {
	db := openDB(t)
	red := &countingRedactor{}
	db.Redactor = red
	var atBegin int64 = -1
	db.BeforeWrite = func(context.Context) (func(), error) {
		if atBegin < 0 {
			atBegin = red.n.Load()
		}
		return func() {}, nil
	}
	const n = 1000
	ms := make([]*recall.Memory, n)
	for i := range ms {
		ms[i] = &recall.Memory{Title: fmt.Sprintf("Memory %d", i), Content: fmt.Sprintf("content of memory %d", i)}
	}
	res, err := NewMemoryService(db).ImportMemories(context.Background(), ms)
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != n || red.n.Load() != n {
		t.Fatalf("%d added, %d cleaned; want %d", res.Added, red.n.Load(), n)
	}
	// At most the chunk handed over and the one waiting are cleaned.
	if atBegin > 2*cleanChunk {
		t.Errorf("%d of %d memories cleaned when the transaction began, want at most %d", atBegin, n, 2*cleanChunk)
	}
}
