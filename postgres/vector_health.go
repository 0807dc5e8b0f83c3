package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/recall-mem/recall"
)

// The provider's last failure is a fact of the namespace in store_meta,
// not of the process: doctor, run elsewhere, must see why memories wait.
// The keys are those the SQLite store uses.
const metaEmbedError, metaEmbedErrorAt = "embed_error", "embed_error_at"

// isCutShort says that err is the caller's cancellation or deadline, not a
// failure of the provider.
func isCutShort(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// noteFailure records err as the provider's last failure, on n memories
// (VectorStats counts them failing, as SQLite counts the queue entries
// that failed, until a drain succeeds). The caller's context may be what
// failed, so the write has its own.
func (s *VectorService) noteFailure(err error, n int) {
	if isCutShort(err) {
		return
	}
	s.queue.mu.Lock()
	s.queue.failing = max(s.queue.failing, n)
	s.queue.mu.Unlock()
	msg := recall.ErrorMessage(err)
	if recall.ErrorCode(err) == recall.EINTERNAL {
		msg = err.Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	werr := s.db.tx(ctx, func(tx *Tx) error {
		if err := tx.setMeta(ctx, metaEmbedError, msg); err != nil {
			return err
		}
		return tx.setMeta(ctx, metaEmbedErrorAt, tx.now.Format(time.RFC3339Nano))
	})
	if werr != nil && s.OnError != nil {
		s.OnError(werr)
	}
}

// clearFailure forgets the provider's last failure: it just answered.
func (tx *Tx) clearFailure(ctx context.Context) error {
	if _, err := tx.Exec(ctx, `DELETE FROM store_meta WHERE namespace = $1 AND key IN ($2, $3)`,
		tx.db.Namespace, metaEmbedError, metaEmbedErrorAt); err != nil {
		return fmt.Errorf("clear embedding failure: %w", err)
	}
	return nil
}
