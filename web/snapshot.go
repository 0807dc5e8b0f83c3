package web

import (
	"sync"
	"time"
)

// snapshot keeps the last result of a slow read for a while: the overview
// is a dashboard, and some of its panels (the doctor's checks, the
// maintain plan, the tier statistics) read the whole store, which at
// 100,000 memories takes far longer than a page should.
type snapshot[T any] struct {
	mu  sync.Mutex
	at  time.Time
	val T
	err error
}

// get returns the kept result while it is younger than ttl, and otherwise
// (or when fresh is set) reads it again with read.
func (s *snapshot[T]) get(now time.Time, ttl time.Duration, fresh bool, read func() (T, error)) (T, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fresh || s.at.IsZero() || now.Sub(s.at) > ttl || now.Before(s.at) {
		s.val, s.err = read()
		s.at = now
	}
	return s.val, s.at, s.err
}

// forget drops the kept result, so the next get reads again.
func (s *snapshot[T]) forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.at = time.Time{}
}
