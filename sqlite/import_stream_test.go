package sqlite_test

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// streamOf yields n memories, then err if it is not nil.
func streamOf(n int, err error) iter.Seq2[*recall.Memory, error] {
	return func(yield func(*recall.Memory, error) bool) {
		for i := range n {
			m := &recall.Memory{ID: fmt.Sprintf("tr%010d", i), Content: fmt.Sprintf("streamed memory number %d", i)}
			if !yield(m, nil) {
				return
			}
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

// TestMemoryService_ImportMemoryStream: a stream spanning several batches
// is written whole, ids kept, and an error at its very end, after batches
// were already written in the transaction, leaves the store as it was.
func TestMemoryService_ImportMemoryStream(t *testing.T) {
	ctx := context.Background()
	s := sqlite.NewMemoryService(MustOpenDB(t))
	kept, err := s.PutMemory(ctx, &recall.Memory{ID: "tr0000000007", Content: "before the import"})
	if err != nil {
		t.Fatal(err)
	}
	count := func() int {
		t.Helper()
		_, n, err := s.FindMemories(ctx, recall.MemoryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	const n = 2500 // more than two batches
	t.Run("ErrorAtEnd", func(t *testing.T) {
		bad := recall.Errorf(recall.EINVALID, "Line %d is bad.", n+1)
		_, err := s.ImportMemoryStream(ctx, streamOf(n, bad))
		if err == nil || recall.ErrorMessage(err) != recall.ErrorMessage(bad) {
			t.Fatalf("got %v, want %v", err, bad)
		}
		if got := count(); got != 1 {
			t.Fatalf("store holds %d memories after a failed import, want 1", got)
		}
		if m, _ := s.FindMemory(ctx, kept.Memory.ID, ""); m == nil || m.Content != "before the import" || m.Version != kept.Memory.Version {
			t.Fatalf("memory changed by a failed import: %+v", m)
		}
	})
	t.Run("InvalidInLaterBatch", func(t *testing.T) {
		ms := func(yield func(*recall.Memory, error) bool) {
			for m, err := range streamOf(n, nil) {
				if m.ID == "tr0000002000" {
					m.Content = "caf\xe9"
				}
				if !yield(m, err) {
					return
				}
			}
		}
		_, err := s.ImportMemoryStream(ctx, ms)
		if recall.ErrorCode(err) != recall.EINVALID || !strings.HasPrefix(recall.ErrorMessage(err), "Memory 2001 (tr0000002000):") {
			t.Fatalf("got %v, want EINVALID naming memory 2001", err)
		}
		if got := count(); got != 1 {
			t.Fatalf("store holds %d memories after a failed import, want 1", got)
		}
	})
	t.Run("OK", func(t *testing.T) {
		res, err := s.ImportMemoryStream(ctx, streamOf(n, nil))
		if err != nil || res.Added != n-1 || res.Updated != 1 {
			t.Fatalf("got %+v %v, want %d added, 1 updated", res, err, n-1)
		}
		if got := count(); got != n {
			t.Fatalf("store holds %d memories, want %d", got, n)
		}
		m, err := s.FindMemory(ctx, fmt.Sprintf("tr%010d", n-1), "")
		if err != nil || m.Content != fmt.Sprintf("streamed memory number %d", n-1) {
			t.Fatalf("last memory: %+v %v", m, err)
		}
	})
	t.Run("Cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		ms := func(yield func(*recall.Memory, error) bool) {
			for m, err := range streamOf(n, nil) {
				if m.ID == "tr0000001500" {
					cancel()
				}
				m.Content += " again"
				if !yield(m, err) {
					return
				}
			}
		}
		if _, err := s.ImportMemoryStream(cctx, ms); err == nil {
			t.Fatal("a cancelled import succeeded")
		}
		if m, _ := s.FindMemory(ctx, "tr0000000000", ""); m == nil || strings.HasSuffix(m.Content, "again") {
			t.Fatalf("a cancelled import wrote %+v", m)
		}
	})
}
