package postgres

import (
	"context"
	"sync"
	"time"
)

// catchUpEvery is how long a search trusts that nothing was written since
// the last search that found every memory embedded: past it, it looks
// again whatever the newest rows say (a writer whose clock lags may have
// stamped an update earlier than the newest seen).
const catchUpEvery = time.Minute

// caughtUp is what the last search that found nothing left to embed saw
// of the namespace's newest rows: the newest insert (seq) and the newest
// change (updated_at). Looking for memories without a current vector is an
// anti-join over every memory of the namespace (590 ms at 100,000), while
// these two are read from the end of an index each.
type caughtUp struct {
	mu      sync.Mutex
	ok      bool
	seq     int64
	updated time.Time
	at      time.Time
}

// catchUp embeds, before a search, what was written here or elsewhere
// without vectors (searchCatchUp memories at most), unless nothing was
// written since a search last found none.
func (s *VectorService) catchUp(ctx context.Context) error {
	var seq int64
	var updated time.Time
	if err := s.db.pool.QueryRow(ctx, `SELECT
			coalesce((SELECT seq FROM memories WHERE namespace = $1 ORDER BY seq DESC LIMIT 1), 0),
			coalesce((SELECT updated_at FROM memories WHERE namespace = $1 ORDER BY updated_at DESC LIMIT 1), 'epoch')`,
		s.db.Namespace).Scan(&seq, &updated); err != nil {
		return err
	}
	c := &s.caught
	c.mu.Lock()
	same := c.ok && c.seq == seq && c.updated.Equal(updated) && time.Since(c.at) < catchUpEvery
	c.mu.Unlock()
	if same && s.QueuedHere() == 0 {
		return nil
	}
	n, err := s.Embed(ctx, searchCatchUp)
	if err != nil {
		return err
	}
	s.queue.mu.Lock()
	s.queue.queued = max(0, s.queue.queued-int64(n))
	s.queue.mu.Unlock()
	if n < searchCatchUp { // none left: what was read above is all embedded
		c.mu.Lock()
		c.ok, c.seq, c.updated, c.at = true, seq, updated, time.Now()
		c.mu.Unlock()
	}
	return nil
}
