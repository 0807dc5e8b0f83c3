package recall

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"io"
	"sync"
	"time"
)

// IDPrefix starts every memory id. The same token ends a managed markdown
// line (`^trXXXXXXXXXX`), so an entry round-trips between store and files.
const IDPrefix = "tr"

var idRE = lazyRegexp(`^tr[0-9a-f]{10}$`)

// The 40 bits of a new id: a clock's tick in the leading idTickBits, then
// idRandBits that start at a random value each tick and climb by a random
// step for each further id in it. Ids made close in time are close as
// keys, so a batch of inserts touches a few leaf pages of the indexes
// keyed by id rather than nearly all of them (docs/performance.md,
// "timeid"); the tick wraps, since locality is what counts, not order.
const (
	idTickBits = 12
	idRandBits = 40 - idTickBits
	// idTickShift makes a tick 2^26 ns (67 ms): a batch of 1,000 spans one
	// or two, and the clock wraps every 2^38 ns, about 4.6 minutes.
	idTickShift = 26
	// idMaxStep bounds the random step between ids of one tick: a tick of
	// 25,000/s (1,700 ids) uses about 0.1% of its 2^28 values.
	idMaxStep = 256
)

// idSource makes ids for one process; its clock and random source are
// fields so that tests can fix them.
type idSource struct {
	mu   sync.Mutex
	now  func() time.Time
	rand io.Reader
	// The clock's ticks are counted from base, the first id's time, by
	// the time elapsed since (monotonic in a process; time.Now's wall
	// clock can step back), and never go back: tick is the last one used.
	base     time.Time
	baseNano int64
	tick     uint64
	// mark holds, for each of the 4,096 values of the clock's digits, the
	// random bits of the last id made with them, plus one (0: none yet;
	// idTickFull: no room left). A value met again, in a later cycle or
	// after its room ran out, climbs on from there rather than starting
	// afresh where it may fall on an id already made.
	mark *[1 << idTickBits]uint32
	buf  [8]byte
}

// idTickFull marks a value of the clock's digits whose random bits are spent.
const idTickFull = 1<<32 - 1

var ids = &idSource{now: time.Now, rand: rand.Reader}

// NewID returns a fresh memory id: "tr" and 10 lowercase hex digits, of
// which the first three are a clock's (so an id tells roughly when within
// some minutes it was made) and the rest random. A process never makes
// the same id twice (short of two billion ids at least, when every value
// of the clock's digits is spent) and its ids of one cycle of the clock
// sort in the order made. Another process can still take the same id: callers
// that insert one draw again on a clash.
func NewID() string { return ids.next() }

func (s *idSource) next() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mark == nil {
		s.mark = new([1 << idTickBits]uint32)
		s.base = s.now()
		s.baseNano = s.base.UnixNano()
	}
	tick := uint64(s.baseNano+int64(s.now().Sub(s.base))) >> idTickShift
	tick = max(tick, s.tick)
	r := s.random()
	var last uint64
	for spent := 0; ; spent++ {
		m := &s.mark[tick%(1<<idTickBits)]
		switch {
		case *m == 0:
			// The first id of these digits: a random start with its top
			// bit clear, so that the tick has room to climb.
			last = r >> (64 - idRandBits + 1)
		case *m != idTickFull:
			last = uint64(*m-1) + r%idMaxStep + 1
		}
		if *m != idTickFull && last < 1<<idRandBits {
			*m = uint32(last + 1)
			break
		}
		// No room left in these digits: the next tick's.
		*m = idTickFull
		tick++
		if spent == 1<<idTickBits {
			// Every value spent: start over, ids may repeat from here.
			clear(s.mark[:])
		}
	}
	s.tick = tick
	binary.BigEndian.PutUint64(s.buf[:], tick%(1<<idTickBits)<<idRandBits|last)
	var id [len(IDPrefix) + 10]byte
	copy(id[:], IDPrefix)
	hex.Encode(id[len(IDPrefix):], s.buf[3:])
	return string(id[:])
}

// random returns 64 random bits.
func (s *idSource) random() uint64 {
	if _, err := io.ReadFull(s.rand, s.buf[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return binary.BigEndian.Uint64(s.buf[:])
}

// RandomHex returns n lowercase hex digits drawn at random, for names that
// must be neither guessable from nor ordered by the time they were made
// (a session's suffix); memory ids come from NewID.
func RandomHex(n int) string {
	b := make([]byte, (n+1)/2)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)[:n]
}

// IsID reports whether s has the form of a memory id.
func IsID(s string) bool { return idRE().MatchString(s) }

var rollupIDRE = lazyRegexp(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// IsRollupID reports whether s has the form of a rollup id: a lower-case
// UUID. A key could have that form too: look memories up first.
func IsRollupID(s string) bool { return rollupIDRE().MatchString(s) }
