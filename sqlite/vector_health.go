package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/recall-mem/recall"
)

// The embedding provider's health is kept in the store, not in a process:
// a CLI write, a search and a server each see the provider for a moment,
// and doctor (another process, later) must be able to say that it failed,
// when and why. The last failure stays in store_meta until an embedding
// succeeds.

// Keys in store_meta recording the provider's last failure.
const (
	metaEmbedError   = "embed_error"
	metaEmbedErrorAt = "embed_error_at" // milliseconds since the epoch
)

// failureText is how a provider failure is stored: the message written for
// people, or the whole error when it is an internal one.
func failureText(err error) string {
	if recall.ErrorCode(err) == recall.EINTERNAL {
		return err.Error()
	}
	return recall.ErrorMessage(err)
}

// isCutShort says that err is the caller's cancellation or deadline, not a
// failure of the provider.
func isCutShort(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// noteFailureTx records the provider's failure in tx.
func noteFailureTx(ctx context.Context, tx *Tx, msg string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO store_meta (key, value) VALUES (?, ?), (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
		metaEmbedError, msg, metaEmbedErrorAt, fmt.Sprint(ms(tx.now)))
	if err != nil {
		return fmt.Errorf("note embedding failure: %w", err)
	}
	return nil
}

// clearFailureTx forgets the last failure: an embedding just succeeded.
func clearFailureTx(ctx context.Context, tx *Tx) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM store_meta WHERE key IN (?, ?)`, metaEmbedError, metaEmbedErrorAt); err != nil {
		return fmt.Errorf("clear embedding failure: %w", err)
	}
	return nil
}

// noteFailure records, in a transaction of its own, that the provider
// could not be used while memories wait for it. The bookkeeping runs even
// when the caller's context is what ended.
func (s *VectorService) noteFailure(cause error) {
	if isCutShort(cause) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.report(s.db.update(ctx, func(tx *Tx) error { return noteFailureTx(ctx, tx, failureText(cause)) }))
}

// lastFailure reads the provider's last recorded failure: "" when the last
// embedding succeeded or none failed.
func (s *VectorService) lastFailure(ctx context.Context) (string, *time.Time, error) {
	var msg string
	var at sql.NullInt64
	err := s.db.read.QueryRowContext(ctx, `SELECT
		COALESCE((SELECT value FROM store_meta WHERE key = ?), ''),
		(SELECT CAST(value AS INTEGER) FROM store_meta WHERE key = ?)`, metaEmbedError, metaEmbedErrorAt).Scan(&msg, &at)
	if err != nil {
		return "", nil, fmt.Errorf("embedding failure: %w", err)
	}
	if msg == "" {
		return "", nil, nil
	}
	var when *time.Time
	if at.Valid {
		t := fromMS(at.Int64)
		when = &t
	}
	return msg, when, nil
}

// QueuedHere counts the memories this process queued for embedding (those
// a write could not embed inline, or all of them for a remote provider).
func (s *VectorService) QueuedHere() int64 { return s.queued.Load() }
