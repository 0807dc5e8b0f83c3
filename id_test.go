package recall

import (
	"bytes"
	"crypto/rand"
	"slices"
	"sync"
	"testing"
	"time"
)

// fixedIDs is an id source on a clock the test sets.
func fixedIDs(at *time.Time) *idSource {
	return &idSource{now: func() time.Time { return *at }, rand: rand.Reader}
}

func TestNewID_Form(t *testing.T) {
	for range 1000 {
		if id := NewID(); !IsID(id) {
			t.Fatalf("NewID() = %q, not an id", id)
		}
	}
	at := time.Unix(0, 0)
	s := fixedIDs(&at)
	for _, d := range []time.Duration{0, 1<<38 - 1, 1 << 38, -1, 1<<63 - 1} {
		at = time.Unix(0, int64(d))
		if id := s.next(); !IsID(id) {
			t.Fatalf("at %d ns: %q, not an id", d, id)
		}
	}
}

// Ids made in sequence share their leading digits within a tick, climb
// within it and across the ticks of one cycle of the clock, so that they
// sort in the order made; the clock wraps after 2^12 ticks.
func TestNewID_Locality(t *testing.T) {
	at := time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC).Truncate(1 << 38) // the start of a cycle
	s := fixedIDs(&at)
	var made []string
	for tick := range 40 {
		at = at.Add(1 << idTickShift) // 67 ms
		first := s.next()
		made = append(made, first)
		for range 500 {
			id := s.next()
			if id[:5] != first[:5] {
				t.Fatalf("tick %d: %s then %s: the leading three digits differ", tick, first, id)
			}
			made = append(made, id)
		}
	}
	if !slices.IsSorted(made) {
		t.Fatal("ids made in sequence within a cycle do not sort in the order made")
	}
	if len(slices.Compact(slices.Clone(made))) != len(made) {
		t.Fatal("an id was made twice")
	}
	at = at.Add(1<<38 - 39<<idTickShift) // a cycle on from the first tick
	if id := s.next(); id[:5] != made[0][:5] {
		t.Fatalf("a cycle later %s, not %s...: the clock does not wrap", id, made[0][:5])
	}
}

// Many ids made at once, at a clock standing still, from several
// goroutines, are all different.
func TestNewID_UniqueAtFixedClock(t *testing.T) {
	at := time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC)
	s := fixedIDs(&at)
	const workers, each = 4, 50000
	out := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for range each {
				out[w] = append(out[w], s.next())
			}
		})
	}
	wg.Wait()
	all := slices.Concat(out...)
	slices.Sort(all)
	if n := len(slices.Compact(all)); n != workers*each {
		t.Fatalf("%d ids made, %d different", workers*each, n)
	}
	if all[0][:5] != all[len(all)-1][:5] {
		t.Fatalf("ids of one tick span %s to %s", all[0], all[len(all)-1])
	}
}

// A tick whose values run out moves on to the next tick's digits: the
// ids go on climbing, never into the clock's digits nor back onto one
// already made (2^27 values at the largest step: spent after 2^19 ids).
func TestNewID_TickSpent(t *testing.T) {
	at := time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC)
	ones := bytes.Repeat([]byte{0xff}, 8) // every step the largest, every start the highest
	s := &idSource{now: func() time.Time { return at }, rand: &repeatReader{ones}}
	first := s.next()
	if first[5:] != "7ffffff" {
		t.Fatalf("first id %s: a tick's start should leave its top bit clear", first)
	}
	prev, prefixes := first, 1
	for range 1<<20 + 1<<19 {
		id := s.next()
		if !IsID(id) || id <= prev {
			t.Fatalf("%s after %s: not an id above it, at a clock standing still", id, prev)
		}
		if id[:5] != prev[:5] {
			prefixes++
		}
		prev = id
	}
	if prefixes != 3 {
		t.Fatalf("3 × 2^19 ids at the largest step took %d ticks' digits, not 3", prefixes)
	}
}

// A clock stepping back does not make an id again: the ticks never go
// back, and the digits of a tick met again climb on from their last id.
func TestNewID_ClockBack(t *testing.T) {
	at := time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC).Truncate(1 << idTickShift)
	fixed := []byte{0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0x10} // the same start and step every time
	s := &idSource{now: func() time.Time { return at }, rand: &repeatReader{fixed}}
	seen := map[string]bool{}
	for _, step := range []time.Duration{0, 1 << idTickShift, -1 << idTickShift, -1 << idTickShift, 5 << idTickShift, -time.Hour} {
		at = at.Add(step)
		for range 3 {
			id := s.next()
			if seen[id] {
				t.Fatalf("clock stepped by %v: %s made twice", step, id)
			}
			seen[id] = true
		}
	}
}

// The same digits of the clock a cycle later (4.6 minutes) climb on from
// the last id made with them rather than starting afresh.
func TestNewID_Wrap(t *testing.T) {
	at := time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC).Truncate(1 << idTickShift)
	fixed := []byte{0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0x10}
	s := &idSource{now: func() time.Time { return at }, rand: &repeatReader{fixed}}
	first := s.next()
	at = at.Add(1 << idTickShift)
	s.next()
	at = at.Add(1<<38 - 1<<idTickShift) // a cycle on from the first
	again := s.next()
	if again[:5] != first[:5] || again <= first {
		t.Fatalf("a cycle later %s after %s: not the same digits of the clock, climbing", again, first)
	}
}

type repeatReader struct{ b []byte }

func (r *repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.b[i%len(r.b)]
	}
	return len(p), nil
}

func TestRandomHex(t *testing.T) {
	seen := map[string]bool{}
	firsts := map[byte]bool{}
	for range 1000 {
		h := RandomHex(7)
		if len(h) != 7 || !idRE().MatchString(IDPrefix+h+"000") {
			t.Fatalf("RandomHex(7) = %q", h)
		}
		seen[h] = true
		firsts[h[0]] = true
	}
	// 1,000 draws of 28 bits: a repeat has odds of 1 in 500 or so.
	if len(seen) < 999 || len(firsts) != 16 {
		t.Fatalf("1,000 draws: %d different, %d different first digits", len(seen), len(firsts))
	}
}

// BenchmarkNewID is the cost of one id from the process's source.
func BenchmarkNewID(b *testing.B) {
	for b.Loop() {
		NewID()
	}
}
