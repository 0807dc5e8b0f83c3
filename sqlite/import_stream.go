package sqlite

import (
	"context"
	"iter"

	"github.com/recall-mem/recall"
)

// importBatch is how many memories a streamed import reads, cleans and
// embeds at a time: enough to keep every core busy redacting, few enough
// that memory stays bounded whatever the size of the input.
const importBatch = 1024

// importChunk is one batch of a streamed import, cleaned; err ends the
// import.
type importChunk struct {
	first int // index of ms[0] in the whole import
	ms    []*recall.Memory
	err   error
}

// ImportMemoryStream implements recall.MemoryStreamImporter: the memories
// are written in one transaction as they are read, a batch at a time, so
// that an error anywhere, even on the last line, leaves the store as it was.
func (s *MemoryService) ImportMemoryStream(ctx context.Context, ms iter.Seq2[*recall.Memory, error]) (*recall.ImportResult, error) {
	return s.importChunked(ctx, ms, importBatch)
}

// importChunked writes ms in one transaction, cleaned in chunks of size on
// a goroutine of their own while the writer stores the chunk before.
func (s *MemoryService) importChunked(ctx context.Context, ms iter.Seq2[*recall.Memory, error], size int) (*recall.ImportResult, error) {
	actx, stop := context.WithCancel(ctx)
	defer stop()
	chunks := s.db.importChunks(actx, ms, size)
	res := &recall.ImportResult{}
	err := s.db.update(ctx, func(tx *Tx) error {
		for c := range chunks {
			if c.err != nil {
				return c.err
			}
			// One batch embeds at a time, ahead of its writes, as
			// ImportMemories embeds: an embedder's buffers are not
			// multiplied by the batches waiting.
			tx.vec.ahead = s.db.embedAhead(actx, c.ms)
			if err := importInto(ctx, tx, c.ms, c.first, res); err != nil {
				return err
			}
		}
		return ctx.Err()
	})
	// Stop the reader and wait for it, so that nothing reads the input
	// after the import returns.
	stop()
	for range chunks {
	}
	if err != nil {
		return nil, err
	}
	s.db.mergeFTSAfterImport(ctx, res.Added+res.Updated)
	return res, nil
}

// importChunks reads ms in batches of size on its own goroutine, cleaning
// each while the writer stores the one before: reading and redaction
// overlap the single writer. At most two batches wait. The channel closes
// after the last batch, after an error, or once ctx ends.
func (db *DB) importChunks(ctx context.Context, ms iter.Seq2[*recall.Memory, error], size int) <-chan importChunk {
	out := make(chan importChunk, 1)
	send := func(c importChunk) bool {
		select {
		case out <- c:
			return c.err == nil
		case <-ctx.Done():
			return false
		}
	}
	flush := func(first int, batch []*recall.Memory) bool {
		clean, err := db.cleanAll(batch, first)
		if err != nil {
			return send(importChunk{err: err})
		}
		return send(importChunk{first: first, ms: clean})
	}
	go func() {
		defer close(out)
		first, n := 0, 0
		batch := make([]*recall.Memory, 0, size)
		for m, err := range ms {
			if err != nil {
				send(importChunk{err: err})
				return
			}
			if ctx.Err() != nil {
				return
			}
			batch = append(batch, m)
			n++
			if len(batch) == size {
				if !flush(first, batch) {
					return
				}
				first, batch = n, make([]*recall.Memory, 0, size)
			}
		}
		if len(batch) > 0 {
			flush(first, batch)
		}
	}()
	return out
}
