package postgres

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"

	"github.com/recall-mem/recall"
)

// Inline embedding of what this process wrote. The writer hands over the
// memories as stored, so their text need not be read back: a query per
// round for the memories without a current vector cost more than the
// vectors' own writes once the planner misjudged the fresh rows (20 ms on
// average, up to 200 ms, per 64 memories). The vectors are still written
// only if the memory's text is the one embedded (see embedItems).

// wroteMemories is told of the memories this process just wrote, as
// stored: inline, it embeds them now (a failure leaves them queued and is
// reported to OnError, the write having committed); otherwise it counts
// them as queued.
func (s *VectorService) wroteMemories(ctx context.Context, ms []*recall.Memory) {
	s.afterWrite(len(ms), func() error { return s.embedMemories(ctx, ms) })
}

// embedMemories embeds ms, the latest state of each memory counting when
// one comes more than once.
func (s *VectorService) embedMemories(ctx context.Context, ms []*recall.Memory) error {
	e, err := s.embedder()
	if err != nil {
		return err
	}
	if err := s.ensureIndex(ctx, e.Dim()); err != nil {
		return fmt.Errorf("vector index: %w", err)
	}
	at := map[string]int{}
	var items []*embedItem
	for _, m := range ms {
		it := &embedItem{id: m.ID, title: m.Title, content: m.Content, hash: storedTextHash(m.Title, m.Content)}
		if i, ok := at[m.ID]; ok {
			items[i] = it
			continue
		}
		at[m.ID] = len(items)
		items = append(items, it)
	}
	return inBatches(s.batchSize(), items, func(part []*embedItem) error {
		_, err := s.embedItems(ctx, e, part)
		return err
	})
}

// batchSize is how many memories go to the embedder at once.
func (s *VectorService) batchSize() int {
	if s.BatchSize > 0 {
		return s.BatchSize
	}
	return DefaultEmbedBatch
}

// inBatches calls fn on items in runs of size, stopping at an error.
func inBatches[T any](size int, items []T, fn func(part []T) error) error {
	for len(items) > 0 {
		part := items[:min(size, len(items))]
		items = items[len(part):]
		if err := fn(part); err != nil {
			return err
		}
	}
	return nil
}

// storedTextHash is the text_hash column's value for a memory with this
// title and content: md5(title || chr(10) || content), in hex.
func storedTextHash(title, content string) string {
	sum := md5.Sum([]byte(title + "\n" + content))
	return hex.EncodeToString(sum[:])
}
